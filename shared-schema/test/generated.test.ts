// The committed JSON Schema files and README field reference must equal what the zod schemas
// generate now. When this fails, run: npx tsx shared-schema/scripts/generate.ts
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATE_COMMAND, GENERATED_COMMENT, generatedFiles, renderReadme } from "../scripts/jsonschema";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const expected = generatedFiles();

describe("generated files", () => {
  it.each([...expected.keys()])("%s is up to date", (path) => {
    const committed = read(path);
    expect(committed === expected.get(path), `${path} is stale: run ${GENERATE_COMMAND}`).toBe(true);
  });

  it("jsonschema/ holds no file the generator does not write", () => {
    const present = readdirSync(new URL("jsonschema/", root)).map((f) => `jsonschema/${f}`);
    expect(present.filter((f) => !expected.has(f)), `stale files: run ${GENERATE_COMMAND}`).toEqual([]);
  });

  it("every generated file says it is generated", () => {
    for (const content of expected.values()) expect(JSON.parse(content).$comment).toBe(GENERATED_COMMENT);
  });

  it("README field reference is up to date", () => {
    const readme = read("README.md");
    expect(readme === renderReadme(readme), `README.md field reference is stale: run ${GENERATE_COMMAND}`).toBe(true);
  });

  it("every object in every schema rejects unknown fields", () => {
    const open: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== "object") return;
      const obj = node as Record<string, unknown>;
      if (obj.type === "object" && obj.additionalProperties !== false) {
        // The only open objects are a mutation's or change's field values, checked after merging.
        const values = obj.patternProperties as Record<string, unknown> | undefined;
        if (!values || Object.values(values).some((v) => JSON.stringify(v) !== "{}")) open.push(at);
      }
      for (const [k, v] of Object.entries(obj)) walk(v, `${at}/${k}`);
    };
    for (const [path, content] of expected) walk(JSON.parse(content), path);
    expect(open).toEqual([]);
  });

  it("every string in every schema is bounded", () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== "object") return;
      const obj = node as Record<string, unknown>;
      const bounded = obj.maxLength !== undefined || obj.enum !== undefined || obj.const !== undefined || obj.pattern !== undefined;
      if (obj.type === "string" && !bounded) unbounded.push(at);
      if (obj.type === "string" && obj.format === "text" && obj.maxLength === undefined) unbounded.push(at);
      if (obj.type === "array" && obj.maxItems === undefined) unbounded.push(at);
      if ((obj.type === "integer" || obj.type === "number") && (obj.minimum === undefined || obj.maximum === undefined)) {
        unbounded.push(at);
      }
      for (const [k, v] of Object.entries(obj)) walk(v, `${at}/${k}`);
    };
    for (const [path, content] of expected) walk(JSON.parse(content), path);
    expect(unbounded).toEqual([]);
  });
});
