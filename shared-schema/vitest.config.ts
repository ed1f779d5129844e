import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "shared-schema", include: ["src/**/*.test.ts", "test/**/*.test.ts"], environment: "node" },
});
