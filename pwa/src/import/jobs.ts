// The statement worker's job (parse.worker.ts): decode the file's bytes in its format's encoding and
// parse it, telling the progress. Runs in the page too when workers are unavailable (tests).
import type { CsvOptions } from "./csv";
import { decodeStatement } from "./detect";
import { parseStatement } from "./index";
import type { ParseResult, StatementFormat } from "./types";

export interface ParseRequest {
  id: number;
  bytes: ArrayBuffer;
  format: StatementFormat;
  csv?: CsvOptions;
}

export type ParseMessage = { id: number; kind: "progress"; fraction: number } | { id: number; kind: "done"; result: ParseResult };

export function runParseJob(req: ParseRequest, post: (msg: ParseMessage) => void): void {
  const text = decodeStatement(new Uint8Array(req.bytes), req.format);
  const result = parseStatement(text, req.format, req.csv, (fraction) => post({ id: req.id, kind: "progress", fraction }));
  post({ id: req.id, kind: "done", result });
}
