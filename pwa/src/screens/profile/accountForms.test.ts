import { describe, expect, test } from "vitest";
import { confirmsDeletion, newEmailProblem } from "./accountForms";

describe("newEmailProblem", () => {
  test.each([
    ["an empty field is required", "", "required"],
    ["only spaces are required too", "   ", "required"],
    ["an address without @ is invalid", "ana.example.com", "invalid"],
    ["an address without a domain dot is invalid", "ana@example", "invalid"],
    ["an address with spaces inside is invalid", "ana garcia@example.com", "invalid"],
    ["the current address is the same", "ana@example.com", "same"],
    ["the current address in other capitals and with spaces around is the same", "  Ana@Example.COM ", "same"],
    ["another address is fine", "ana.nueva@example.org", null],
  ])("%s", (_name, value, problem) => {
    expect(newEmailProblem(value, "ana@example.com")).toBe(problem);
  });
});

describe("confirmsDeletion", () => {
  test.each([
    ["the address as shown confirms", "ana@example.com", true],
    ["capitals and spaces around do not matter", " ANA@example.com ", true],
    ["nothing typed does not confirm", "", false],
    ["part of the address does not confirm", "ana@example", false],
    ["another address does not confirm", "luis@example.com", false],
  ])("%s", (_name, typed, expected) => {
    expect(confirmsDeletion(typed, "ana@example.com")).toBe(expected);
  });

  test("an account without an address cannot be confirmed by typing nothing", () => {
    expect(confirmsDeletion("", "")).toBe(false);
  });
});
