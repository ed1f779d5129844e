// seedRecords from another process (Playwright's loader cannot import @patrimonio/clientdb): reads
// {baseUrl, email, password, workspaceId?, plan} as JSON on stdin, prints {workspaceId, ids}.
// pwa/e2e/dashboard.spec.ts runs it with tsx.
import { seedRecords, type PlannedRecord } from "./seed";

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  const input = JSON.parse(text) as { baseUrl: string; email: string; password: string; workspaceId?: string; plan: PlannedRecord[] };
  const result = await seedRecords(input.baseUrl, input.email, input.password, input.plan, input.workspaceId);
  process.stdout.write(`${JSON.stringify({ workspaceId: result.workspaceId, ids: result.ids })}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
