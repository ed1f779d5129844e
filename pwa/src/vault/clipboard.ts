// A secret copied to the clipboard does not stay there: it is cleared 30 seconds later
// (CLIPBOARD_CLEAR_MS) or as soon as the vault it came from locks (the Lock button, the idle lock,
// sign-out), whichever comes first. A browser refuses to write the clipboard from a tab without focus
// (the person went to paste it elsewhere): then it is cleared when the tab gets the focus back.
// Copying something else in the app first (a copy or cut event) cancels the clear, so that is kept.
// The clipboard is not read to check it still holds the secret (that asks for a permission): a text
// copied in another application meanwhile is cleared too.
import { vaultSession, type VaultSession } from "./session";

export const CLIPBOARD_CLEAR_MS = 30_000;

export interface CopyDeps {
  clipboard?: Pick<Clipboard, "writeText">;
  session?: VaultSession;
  /** Where focus, copy and cut are heard (the window). */
  target?: EventTarget;
}

/** Cancels the clear still pending for the last secret copied (one clipboard, one pending clear). */
let cancelPending: (() => void) | undefined;

/** Copies a secret of `workspaceId`'s vault and schedules its removal from the clipboard. */
export async function copySecret(workspaceId: string, text: string, deps: CopyDeps = {}): Promise<void> {
  const clipboard = deps.clipboard ?? navigator.clipboard;
  const session = deps.session ?? vaultSession;
  const target = deps.target ?? window;
  await clipboard.writeText(text);
  cancelPending?.();

  const clear = (): void => {
    stop();
    clipboard.writeText("").catch(() => {
      // Not focused: try again when the tab is back (unless something else was copied here first).
      target.addEventListener("focus", retry);
      target.addEventListener("copy", stopRetry);
      target.addEventListener("cut", stopRetry);
      cancelPending = stopRetry;
    });
  };
  const retry = (): void => {
    stopRetry();
    void clipboard.writeText("").catch(() => undefined);
  };
  const stopRetry = (): void => {
    target.removeEventListener("focus", retry);
    target.removeEventListener("copy", stopRetry);
    target.removeEventListener("cut", stopRetry);
    if (cancelPending === stopRetry) cancelPending = undefined;
  };
  const timer = setTimeout(clear, CLIPBOARD_CLEAR_MS);
  const unsubscribe = session.subscribe(() => {
    if (!session.get(workspaceId)) clear();
  });
  const stop = (): void => {
    clearTimeout(timer);
    unsubscribe();
    target.removeEventListener("copy", stop);
    target.removeEventListener("cut", stop);
    if (cancelPending === stop) cancelPending = undefined;
  };
  target.addEventListener("copy", stop);
  target.addEventListener("cut", stop);
  cancelPending = stop;
}
