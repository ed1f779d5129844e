// The jobs of the Web Worker (figures.worker.ts) that computes the dashboard's figures off the main thread: a large workspace
// (10,000 assets, 50,000 valuations) takes a few hundred milliseconds for today's figures and
// seconds for the history and the returns, in decimals. Two kinds of job: "now" (net worth,
// distribution; no valuation history needed) and "history" (series, changes, returns).
import { computeHistory } from "./history";
import { computeNow, prepare } from "./now";
import type { FiguresInput, HistoryFigures, NowFigures } from "./types";

export type WorkerRequest = { id: number; kind: "now"; input: FiguresInput } | { id: number; kind: "history"; input: FiguresInput };
export type WorkerResponse =
  | { id: number; kind: "now"; ok: true; figures: NowFigures }
  | { id: number; kind: "history"; ok: true; base: string; figures: HistoryFigures }
  | { id: number; kind: "now" | "history"; ok: false; error: string };

export function runJob(req: WorkerRequest): WorkerResponse {
  try {
    const p = prepare(req.input);
    return req.kind === "now" ? { id: req.id, kind: "now", ok: true, figures: computeNow(p) } : { id: req.id, kind: "history", ok: true, base: req.input.base, figures: computeHistory(p) };
  } catch (e) {
    return { id: req.id, kind: req.kind, ok: false, error: String(e) };
  }
}
