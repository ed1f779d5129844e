// A copied secret leaves the clipboard: after 30 s, at once when its vault locks, on the tab's
// return when the browser refused to write it unfocused; not when something else was copied first.
import { afterEach, describe, expect, test, vi } from "vitest";
import { CLIPBOARD_CLEAR_MS, copySecret } from "./clipboard";
import { createVaultKey } from "./keys";
import { VaultSession } from "./session";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const FAST = { algorithm: "argon2id", memoryKiB: 8192, iterations: 1, parallelism: 1 } as const;

/** A clipboard that holds one text; `focused: false` makes writes fail as Chromium's do unfocused. */
function fakeClipboard() {
  const c = {
    text: "",
    focused: true,
    writeText: (t: string) => {
      if (!c.focused) return Promise.reject(new DOMException("Document is not focused.", "NotAllowedError"));
      c.text = t;
      return Promise.resolve();
    },
  };
  return c;
}

async function setUp() {
  const target = new EventTarget();
  const session = new VaultSession({ target });
  const { key } = await createVaultKey("clipboard passphrase", WS, FAST);
  session.adopt(WS, key);
  const clipboard = fakeClipboard();
  return { target, session, clipboard, key, deps: { clipboard, session, target } };
}

afterEach(() => vi.useRealTimers());

describe("copying a secret", () => {
  test("it is cleared from the clipboard after 30 seconds, not before", async () => {
    const { clipboard, deps } = await setUp();
    vi.useFakeTimers();
    await copySecret(WS, "hunter2", deps);
    expect(clipboard.text).toBe("hunter2");
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS - 1);
    expect(clipboard.text).toBe("hunter2");
    await vi.advanceTimersByTimeAsync(1);
    expect(clipboard.text).toBe("");
  });

  test("locking the vault clears it at once; another copy restarts the countdown", async () => {
    const { clipboard, session, deps } = await setUp();
    vi.useFakeTimers();
    await copySecret(WS, "first", deps);
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS - 1000);
    await copySecret(WS, "second", deps);
    await vi.advanceTimersByTimeAsync(1000);
    expect(clipboard.text).toBe("second");
    session.lock(WS);
    await vi.advanceTimersByTimeAsync(0);
    expect(clipboard.text).toBe("");
  });

  test("refused while the tab has no focus: cleared when it is back", async () => {
    const { clipboard, target, deps } = await setUp();
    vi.useFakeTimers();
    await copySecret(WS, "hunter2", deps);
    clipboard.focused = false;
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(clipboard.text).toBe("hunter2");
    clipboard.focused = true;
    target.dispatchEvent(new Event("focus"));
    await vi.advanceTimersByTimeAsync(0);
    expect(clipboard.text).toBe("");
  });

  test("something else copied in the app first is left alone", async () => {
    const { clipboard, target, deps } = await setUp();
    vi.useFakeTimers();
    await copySecret(WS, "hunter2", deps);
    target.dispatchEvent(new Event("copy"));
    clipboard.text = "an address the person copied";
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(clipboard.text).toBe("an address the person copied");
  });
});
