// The dashboard's module worker (new Worker(new URL("./figures.worker.ts", import.meta.url), { type: "module" })):
// runs the jobs of jobs.ts off the main thread.
import { runJob, type WorkerRequest } from "./jobs";

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  (self as unknown as Worker).postMessage(runJob(event.data));
};
