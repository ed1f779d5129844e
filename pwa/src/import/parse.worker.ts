// The statement import's module worker (new Worker(new URL("./parse.worker.ts", import.meta.url), { type: "module" })):
// parses large files off the main thread and reports progress.
import { runParseJob, type ParseRequest } from "./jobs";

self.onmessage = (event: MessageEvent<ParseRequest>) => {
  runParseJob(event.data, (msg) => (self as unknown as Worker).postMessage(msg));
};
