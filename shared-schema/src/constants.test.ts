import { describe, expect, it } from "vitest";
import { COLLECTIONS } from "./collections";
import { COLLECTION_NAMES } from "./constants";

describe("constants", () => {
  it("names exactly the collections, in their order", () => {
    expect([...COLLECTION_NAMES]).toEqual(Object.keys(COLLECTIONS));
  });
});
