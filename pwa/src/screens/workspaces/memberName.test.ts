// (The rules of workspace names and invited addresses are the shared schema's, tested by its shared
// vectors in shared-schema/testdata/workspaceNameRequest.json and invitationRequest.json.)
import { describe, expect, test } from "vitest";
import { memberName } from "./memberName";

describe("member names", () => {
  test("first and last name when given, else the e-mail address", () => {
    expect(memberName({ firstName: "Luis", lastName: "Pérez", email: "luis@example.com" })).toBe("Luis Pérez");
    expect(memberName({ firstName: " Luis ", lastName: "", email: "luis@example.com" })).toBe("Luis");
    expect(memberName({ firstName: "", lastName: "  ", email: "luis@example.com" })).toBe("luis@example.com");
  });
});
