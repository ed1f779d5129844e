import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "clientdb", include: ["src/**/*.test.ts", "test/**/*.test.ts"], environment: "node" },
});
