// One statement parse at a time: a file chosen later is never replaced by the late answer of an
// earlier one, and "stop reading" ends the parse (and its worker) at once.
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import type { ParseResult } from "../../import/types";
import { useStatementParser } from "./useStatementParser";

const N43 = new TextEncoder().encode("no es un extracto\n").buffer;
const OFX = new TextEncoder().encode("OFXHEADER:100\n<OFX></OFX>\n").buffer;

afterEach(() => vi.unstubAllGlobals());

describe("useStatementParser (in the page: jsdom has no workers)", () => {
  test("a parse started while another runs supersedes it: the earlier one answers null", async () => {
    const { result } = renderHook(() => useStatementParser());
    let first!: Promise<ParseResult | null>;
    let second!: Promise<ParseResult | null>;
    act(() => {
      first = result.current.parse(N43, "norma43");
      second = result.current.parse(OFX, "ofx");
    });
    await expect(first).resolves.toBeNull();
    const answer = await second;
    expect(answer?.ok).toBe(false);
    expect(answer && !answer.ok && answer.error.key).toBe("statementImport.errors.empty");
    await waitFor(() => expect(result.current.progress).toBeUndefined());
  });

  test("cancel answers null and hides the progress; the late result changes nothing", async () => {
    const { result } = renderHook(() => useStatementParser());
    let pending!: Promise<ParseResult | null>;
    act(() => {
      pending = result.current.parse(N43, "norma43");
    });
    expect(result.current.progress).toBe(0);
    act(() => result.current.cancel());
    await expect(pending).resolves.toBeNull();
    expect(result.current.progress).toBeUndefined();
    // The in-page parse cannot be interrupted; when it finishes, its messages are dropped.
    await import("../../import/jobs");
    await new Promise((r) => setTimeout(r, 0));
    expect(result.current.progress).toBeUndefined();
  });
});

describe("useStatementParser with a worker", () => {
  test("cancel ends the worker; the next parse starts a new one", async () => {
    const made: { terminated: boolean; posted: unknown[] }[] = [];
    // A stand-in for the browser's Worker (jsdom has none): it records, and never answers.
    class FakeWorker {
      onmessage: ((e: MessageEvent) => void) | null = null;
      onerror: (() => void) | null = null;
      state = { terminated: false, posted: [] as unknown[] };
      constructor() {
        made.push(this.state);
      }
      postMessage(msg: unknown) {
        this.state.posted.push(msg);
      }
      terminate() {
        this.state.terminated = true;
      }
    }
    vi.stubGlobal("Worker", FakeWorker);
    const { result } = renderHook(() => useStatementParser());
    let pending!: Promise<ParseResult | null>;
    act(() => {
      pending = result.current.parse(N43, "norma43");
    });
    expect(made).toHaveLength(1);
    act(() => result.current.cancel());
    await expect(pending).resolves.toBeNull();
    expect(made[0]?.terminated).toBe(true);
    act(() => {
      void result.current.parse(OFX, "ofx");
    });
    expect(made).toHaveLength(2);
    expect(made[1]?.posted).toHaveLength(1);
  });
});
