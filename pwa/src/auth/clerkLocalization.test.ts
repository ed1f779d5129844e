import { describe, expect, test } from "vitest";
import { clerkLocalization } from "./clerkLocalization";

describe("clerkLocalization", () => {
  test("Spanish (and anything unknown) gets Clerk's es-ES texts; English gets en-GB", () => {
    expect(clerkLocalization("es").locale).toBe("es-ES");
    expect(clerkLocalization(undefined).locale).toBe("es-ES");
    expect(clerkLocalization("fr").locale).toBe("es-ES");
    expect(clerkLocalization("en").locale).toBe("en-GB");
    expect(clerkLocalization("en-US").locale).toBe("en-GB");
    expect(clerkLocalization("es").signIn?.start?.title).not.toBe(clerkLocalization("en").signIn?.start?.title);
  });
});
