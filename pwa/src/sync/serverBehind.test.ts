// Which side a version refusal puts behind, from the server's health (GET /api/v1/health).
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { describe, expect, test } from "vitest";
import { compareServerVersions } from "./serverBehind";

function answering(status: number, body: unknown): typeof fetch {
  return async (input) => {
    expect(input).toBe("/api/v1/health");
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  };
}

const health = (sync?: unknown) => ({ status: "ok", version: "1.0.0", database: { dialect: "sqlite", reachable: true }, ...(sync === undefined ? {} : { sync }) });

describe("compareServerVersions", () => {
  test.each([
    ["an older schema", { protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION - 1 }, "behind"],
    ["an older protocol", { protocolVersion: PROTOCOL_VERSION - 1, schemaVersion: SCHEMA_VERSION }, "behind"],
    ["a newer schema", { protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION + 1 }, "ahead"],
    ["a newer protocol", { protocolVersion: PROTOCOL_VERSION + 1, schemaVersion: SCHEMA_VERSION }, "ahead"],
    // The refusal came from an older instance still serving while the health came from a new one.
    ["the same versions", { protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION }, "behind"],
    // A build from before the health said its versions: older than this app.
    ["no versions at all", undefined, "behind"],
    ["versions that are not numbers", { protocolVersion: "3", schemaVersion: 6 }, null],
  ] as const)("a health with %s: %s", async (_, sync, want) => {
    expect(await compareServerVersions(answering(200, health(sync)))).toBe(want);
  });

  test("a degraded health (503) still tells", async () => {
    expect(await compareServerVersions(answering(503, { ...health({ protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION + 1 }), status: "degraded" }))).toBe("ahead");
  });

  test.each([
    ["a network failure", (async () => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch],
    ["a page that is not JSON", answering(200, "<!doctype html><p>proxy</p>")],
    ["JSON that is not the health", answering(200, { hello: "world" })],
    ["another error status", answering(502, health())],
  ])("%s tells nothing", async (_, fetchImpl) => {
    expect(await compareServerVersions(fetchImpl)).toBeNull();
  });
});
