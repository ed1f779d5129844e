import { describe, expect, test } from "vitest";
import { formatDateText, parseDateText } from "./date";

describe("parseDateText", () => {
  test.each([
    ["31/12/2024", "2024-12-31"],
    ["1/2/2024", "2024-02-01"],
    ["01-02-2024", "2024-02-01"],
    ["31.12.2024", "2024-12-31"],
    ["31 12 2024", "2024-12-31"],
    [" 31 / 12 / 2024 ", "2024-12-31"],
    ["31122024", "2024-12-31"],
    ["2024-12-31", "2024-12-31"],
    ["2024-2-1", "2024-02-01"],
    ["29/02/2024", "2024-02-29"],
    ["29/02/2000", "2000-02-29"],
    ["01/01/1000", "1000-01-01"],
    ["", ""],
  ])("%j → %j", (text, value) => {
    expect(parseDateText(text)).toEqual({ ok: true, value });
  });

  test.each(["29/02/2023", "29/02/1900", "31/04/2024", "32/01/2024", "00/01/2024", "12/13/2024", "1/1/24", "01/01/0999", "01/01/3000", "2024/12/31", "abc", "12/2024", "1e3", "3112202"])(
    "%j is not a date",
    (text) => {
      expect(parseDateText(text)).toEqual({ ok: false, error: { key: "ui.date.invalid" } });
    },
  );

  test("formatDateText writes the day first and reads back", () => {
    expect(formatDateText("2024-02-01")).toBe("01/02/2024");
    expect(parseDateText(formatDateText("2024-02-01"))).toEqual({ ok: true, value: "2024-02-01" });
    expect(formatDateText("not a date")).toBe("not a date");
  });
});
