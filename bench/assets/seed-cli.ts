// Seeds a workspace from another process (seed.ts's device), for callers that cannot load
// @patrimonio/clientdb themselves (Playwright's test loader refuses shared-schema's JSON imports).
// Reads {baseUrl, email, password, workspaceId?, assets, structures?} as JSON on stdin and prints
// {workspaceId, structureIds, assetIds} as JSON on stdout. pwa/e2e/assets-list.spec.ts runs it with tsx.
import { seedWorkspace } from "./seed";

interface Input {
  baseUrl: string;
  email: string;
  password: string;
  workspaceId?: string;
  assets: Parameters<typeof seedWorkspace>[3] extends (ids: string[]) => { assets: infer A } ? A : never;
  structures?: Parameters<typeof seedWorkspace>[4];
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  const input = JSON.parse(text) as Input;
  const result = await seedWorkspace(input.baseUrl, input.email, input.password, () => ({ assets: input.assets }), input.structures ?? [], input.workspaceId);
  process.stdout.write(`${JSON.stringify({ workspaceId: result.workspaceId, structureIds: result.structureIds, assetIds: result.assetIds })}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
