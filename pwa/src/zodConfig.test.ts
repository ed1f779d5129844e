import { describe, expect, it } from "vitest";

describe("zodConfig", () => {
  it("makes zod jitless through the object zod keeps on globalThis, without importing zod", async () => {
    await import("./zodConfig");
    const { config, z } = await import("zod");
    // zod's configuration is the very object zodConfig writes to (fails if zod stops adopting it).
    expect(config()).toBe((globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig);
    expect(config().jitless).toBe(true);
    // zod still parses (with its interpreter) under this configuration.
    expect(z.object({ a: z.string() }).safeParse({ a: "x" }).success).toBe(true);
  });
});
