// Parses statement files in a module worker (pwa/src/import/parse.worker.ts), so a large file
// neither freezes the page nor hides its progress; in the page when workers are unavailable.
// One parse at a time: a new parse, or `cancel`, stops the one under way (its worker is ended, so a
// 50 MB file stops using the processor and memory) and its promise resolves to null, so a file
// chosen later is never replaced by the late answer of an earlier one.
import { useCallback, useEffect, useRef, useState } from "react";
import type { CsvOptions } from "../../import/csv";
import type { ParseMessage, ParseRequest } from "../../import/jobs";
import type { ParseResult, StatementFormat } from "../../import/types";

export interface ParserState {
  /** From 0 to 1 while a parse runs; undefined otherwise. */
  progress: number | undefined;
  /** The file's statements or its refusal; null when the parse was cancelled or superseded. */
  parse: (bytes: ArrayBuffer, format: StatementFormat, csv?: CsvOptions) => Promise<ParseResult | null>;
  /** Stops the parse under way, if any (its promise resolves to null). */
  cancel: () => void;
}

export function useStatementParser(): ParserState {
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const worker = useRef<Worker | null>(null);
  const waiting = useRef(new Map<number, (r: ParseResult | null) => void>());
  const nextId = useRef(1);

  useEffect(() => {
    const pending = waiting.current;
    return () => {
      worker.current?.terminate();
      worker.current = null;
      pending.clear();
    };
  }, []);

  const cancel = useCallback(() => {
    const stopped = [...waiting.current.values()];
    waiting.current.clear();
    if (stopped.length > 0 && worker.current) {
      // A worker cannot be interrupted mid-file: it is ended, and the next parse starts another.
      worker.current.terminate();
      worker.current = null;
    }
    setProgress(undefined);
    for (const done of stopped) done(null);
  }, []);

  const onMessage = useCallback((msg: ParseMessage) => {
    // A message of a parse cancelled meanwhile (the page fallback cannot be stopped) is dropped.
    const done = waiting.current.get(msg.id);
    if (!done) return;
    if (msg.kind === "progress") {
      setProgress(msg.fraction);
      return;
    }
    waiting.current.delete(msg.id);
    setProgress(undefined);
    done(msg.result);
  }, []);

  const parse = useCallback(
    (bytes: ArrayBuffer, format: StatementFormat, csv?: CsvOptions): Promise<ParseResult | null> => {
      cancel();
      const id = nextId.current++;
      // A copy: the worker takes its own, so the file can be read again with another mapping.
      const req: ParseRequest = { id, bytes: bytes.slice(0), format, ...(csv ? { csv } : {}) };
      setProgress(0);
      return new Promise<ParseResult | null>((resolve) => {
        waiting.current.set(id, resolve);
        if (!worker.current && typeof Worker !== "undefined") {
          try {
            const w = new Worker(new URL("../../import/parse.worker.ts", import.meta.url), { type: "module" });
            w.onmessage = (e: MessageEvent<ParseMessage>) => onMessage(e.data);
            // A crash (not a refusal: those are answers) fails every parse waiting for this worker.
            w.onerror = () => {
              const crashed = [...waiting.current.values()];
              waiting.current.clear();
              for (const done of crashed) done({ ok: false, error: { line: 0, key: "statementImport.errors.unreadable", params: { line: 0 } } });
              setProgress(undefined);
              w.terminate();
              if (worker.current === w) worker.current = null;
            };
            worker.current = w;
          } catch {
            worker.current = null;
          }
        }
        if (worker.current) {
          worker.current.postMessage(req, [req.bytes]);
          return;
        }
        void import("../../import/jobs").then(({ runParseJob }) => runParseJob(req, onMessage));
      });
    },
    [cancel, onMessage],
  );

  return { progress, parse, cancel };
}
