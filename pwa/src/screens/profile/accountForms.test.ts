import { describe, expect, test } from "vitest";
import { confirmsDeletion } from "./accountForms";

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
