// Writes shared-schema/jsonschema/*.json and the field reference in shared-schema/README.md.
// Run from the repository root: npx tsx shared-schema/scripts/generate.ts
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles, renderReadme } from "./jsonschema";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const files = generatedFiles();

mkdirSync(join(root, "jsonschema"), { recursive: true });
for (const name of readdirSync(join(root, "jsonschema"))) {
  if (!files.has(`jsonschema/${name}`)) rmSync(join(root, "jsonschema", name));
}
for (const [path, content] of files) writeFileSync(join(root, path), content);

const readmePath = join(root, "README.md");
writeFileSync(readmePath, renderReadme(readFileSync(readmePath, "utf8")));

console.warn(`wrote ${files.size} files under shared-schema/jsonschema and the README field reference`);
