import { describe, expect, test } from "vitest";
import { confirmsWorkspaceName, inviteEmailProblem, memberName, normalizeEmail, WORKSPACE_NAME_MAX, workspaceNameProblem } from "./forms";

describe("workspace names", () => {
  test.each([
    ["an ordinary name is fine", "Familia García", null],
    ["a name is trimmed before it is judged", "   Familia   ", null],
    ["an empty name is refused", "", "empty"],
    ["a name of spaces only is empty", "   \u00a0 ", "empty"],
    ["a tab inside the name is a control character", "Familia\tGarcía", "characters"],
    ["a line break inside the name is a control character", "Familia\nGarcía", "characters"],
    ["exactly the longest name is fine", "x".repeat(WORKSPACE_NAME_MAX), null],
    ["one character more is too long", "x".repeat(WORKSPACE_NAME_MAX + 1), "tooLong"],
    ["characters are counted, not UTF-16 units: 80 emoji are fine", "👪".repeat(WORKSPACE_NAME_MAX), null],
    ["81 emoji are too long", "👪".repeat(WORKSPACE_NAME_MAX + 1), "tooLong"],
  ])("%s", (_name, typed, want) => {
    expect(workspaceNameProblem(typed)).toBe(want);
  });
});

describe("addresses to invite", () => {
  test.each([
    ["a plain address is fine", "marta@example.com", null],
    ["surrounding spaces do not matter", "  marta@example.com ", null],
    ["an empty address is asked for", "  ", "empty"],
    ["an address without a domain is refused", "marta@", "invalid"],
    ["an address without a dot in the domain is refused", "marta@localhost", "invalid"],
    ["an address with a display name is refused", "Marta <marta@example.com>", "invalid"],
    ["an address with spaces inside is refused", "marta garcía@example.com", "invalid"],
    ["two at signs are refused", "marta@@example.com", "invalid"],
    ["an address longer than 254 characters is refused", `${"m".repeat(250)}@example.com`, "invalid"],
  ])("%s", (_name, typed, want) => {
    expect(inviteEmailProblem(typed)).toBe(want);
  });

  test("the address is sent trimmed and in lower case, as the server keeps it", () => {
    expect(normalizeEmail("  Marta@Example.COM ")).toBe("marta@example.com");
  });
});

describe("confirming a deletion", () => {
  test("the exact name confirms, spaces around it aside", () => {
    expect(confirmsWorkspaceName(" Familia García ", "Familia García")).toBe(true);
  });

  test("another capitalisation or a part of the name does not", () => {
    expect(confirmsWorkspaceName("familia garcía", "Familia García")).toBe(false);
    expect(confirmsWorkspaceName("Familia", "Familia García")).toBe(false);
    expect(confirmsWorkspaceName("", "Familia García")).toBe(false);
  });
});

describe("member names", () => {
  test("first and last name when given, else the e-mail address", () => {
    expect(memberName({ firstName: "Luis", lastName: "Pérez", email: "luis@example.com" })).toBe("Luis Pérez");
    expect(memberName({ firstName: " Luis ", lastName: "", email: "luis@example.com" })).toBe("Luis");
    expect(memberName({ firstName: "", lastName: "  ", email: "luis@example.com" })).toBe("luis@example.com");
  });
});
