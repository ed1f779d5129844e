import { describe, expect, it } from "vitest";
import { NUMERIC_TO_ALPHA2 } from "./countryCodes";
import { SCALE, step } from "./WealthMapScreen";

describe("the map's colour scale", () => {
  it("splits [0, max] into equal steps, exactly (decimal strings, no floats)", () => {
    expect(step("0", "1000")).toBe(0);
    expect(step("199.99", "1000")).toBe(0);
    expect(step("200", "1000")).toBe(1);
    expect(step("999.99", "1000")).toBe(4);
    expect(step("1000", "1000")).toBe(SCALE.length - 1);
    expect(step("5", "0")).toBe(0);
  });

  it("knows the fixture's countries by their world-atlas numeric ids", () => {
    expect(NUMERIC_TO_ALPHA2["724"]).toBe("ES");
    expect(NUMERIC_TO_ALPHA2["840"]).toBe("US");
    expect(NUMERIC_TO_ALPHA2["152"]).toBe("CL");
  });
});
