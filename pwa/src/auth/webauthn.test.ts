import { describe, expect, test } from "vitest";
import { base64urlToBuffer, bufferToBase64url, creationOptionsFromJSON, requestOptionsFromJSON } from "./webauthn";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (s: string) => new TextEncoder().encode(s);
const asArray = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)];

describe("base64url", () => {
  // RFC 4648 §10 test vectors, in the URL-safe alphabet and without padding.
  test.each([
    ["", ""],
    ["f", "Zg"],
    ["fo", "Zm8"],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg"],
    ["fooba", "Zm9vYmE"],
    ["foobar", "Zm9vYmFy"],
  ])("encodes %j as %j and back", (plain, encoded) => {
    expect(bufferToBase64url(text(plain))).toBe(encoded);
    expect(new TextDecoder().decode(base64urlToBuffer(encoded))).toBe(plain);
  });

  test("uses - and _ where base64 has + and /", () => {
    expect(bufferToBase64url(bytes(0xfb, 0xff, 0xbf))).toBe("-_-_");
    expect(asArray(base64urlToBuffer("-_-_"))).toEqual([0xfb, 0xff, 0xbf]);
  });

  test("accepts padding and the plain base64 alphabet some servers send", () => {
    expect(asArray(base64urlToBuffer("Zg=="))).toEqual([0x66]);
    expect(asArray(base64urlToBuffer("+/+/"))).toEqual([0xfb, 0xff, 0xbf]);
  });

  test("round-trips every byte value, at every length remainder", () => {
    const all = new Uint8Array(256).map((_, i) => i);
    for (const length of [253, 254, 255, 256]) {
      const slice = all.slice(0, length);
      expect(asArray(base64urlToBuffer(bufferToBase64url(slice)))).toEqual([...slice]);
    }
  });

  test("encodes a view of part of a buffer, not the whole buffer", () => {
    const view = new Uint8Array(text("xxfooxx").buffer, 2, 3);
    expect(bufferToBase64url(view)).toBe("Zm9v");
  });

  test.each(["Zm9v!", "Z", "Zm9vY", "a b"])("rejects %j", (bad) => {
    expect(() => base64urlToBuffer(bad)).toThrow(SyntaxError);
  });
});

describe("the server's WebAuthn options", () => {
  test("creation options: challenge, user id and excluded ids become bytes; the rest stays", () => {
    const json = {
      publicKey: {
        rp: { name: "Patrimonio", id: "localhost" },
        user: { id: "AQID", name: "ana@example.com", displayName: "Ana" },
        challenge: "Zm9vYmFy",
        pubKeyCredParams: [{ type: "public-key", alg: -7 }],
        timeout: 300000,
        excludeCredentials: [{ type: "public-key", id: "BAUG", transports: ["internal"] }],
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
        attestation: "none",
      },
    };
    const options = creationOptionsFromJSON(json);
    expect(asArray(options.challenge as ArrayBuffer)).toEqual([...text("foobar")]);
    expect(asArray(options.user.id as ArrayBuffer)).toEqual([1, 2, 3]);
    expect(options.user.name).toBe("ana@example.com");
    expect(options.rp).toEqual({ name: "Patrimonio", id: "localhost" });
    expect(options.authenticatorSelection).toEqual({ residentKey: "required", userVerification: "preferred" });
    expect(options.excludeCredentials?.map((c) => [c.type, asArray(c.id as ArrayBuffer), c.transports])).toEqual([
      ["public-key", [4, 5, 6], ["internal"]],
    ]);
  });

  test("creation options without the publicKey wrapper and without exclusions", () => {
    const options = creationOptionsFromJSON({ user: { id: "AQ", name: "a", displayName: "a" }, challenge: "AA", rp: { name: "P" }, pubKeyCredParams: [] });
    expect(asArray(options.user.id as ArrayBuffer)).toEqual([1]);
    expect(options.excludeCredentials).toBeUndefined();
  });

  test("request options for a discoverable passkey have no allowCredentials", () => {
    const options = requestOptionsFromJSON({ publicKey: { challenge: "Zm9v", rpId: "localhost", userVerification: "preferred" }, mediation: "optional" });
    expect(asArray(options.challenge as ArrayBuffer)).toEqual([...text("foo")]);
    expect(options.rpId).toBe("localhost");
    expect(options.allowCredentials).toBeUndefined();
  });

  test("request options with allowCredentials get their ids as bytes", () => {
    const options = requestOptionsFromJSON({ challenge: "AA", allowCredentials: [{ type: "public-key", id: "_w" }] });
    expect(options.allowCredentials?.map((c) => asArray(c.id as ArrayBuffer))).toEqual([[0xff]]);
  });

  test("options that are not an object are refused", () => {
    expect(() => creationOptionsFromJSON("nope")).toThrow(TypeError);
  });
});
