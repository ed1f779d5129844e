import { describe, expect, it } from "vitest";
import { deviceAuthor, memberName } from "./devices";

const devices = [
  { clientId: "c-laptop", userId: "u-ana", email: "ana@example.com", firstName: "Ana", lastName: "Ruiz" },
  { clientId: "c-phone", userId: "u-ana", email: "ana@example.com", firstName: "Ana", lastName: "Ruiz" },
  { clientId: "c-bea", userId: "u-bea", email: "bea@example.com", firstName: "", lastName: "" },
];

describe("deviceAuthor: who wrote a losing value, seen from one device", () => {
  const me = { clientId: "c-laptop", userId: "u-ana" };

  it("this device, another of mine, a member's (by name, else e-mail), unknown", () => {
    expect(deviceAuthor("c-laptop", me, devices)).toEqual({ kind: "thisDevice" });
    expect(deviceAuthor("c-phone", me, devices)).toEqual({ kind: "myOtherDevice" });
    expect(deviceAuthor("c-phone", { clientId: "c-bea", userId: "u-bea" }, devices)).toEqual({ kind: "member", name: "Ana Ruiz" });
    expect(deviceAuthor("c-bea", me, devices)).toEqual({ kind: "member", name: "bea@example.com" });
    expect(deviceAuthor("c-gone", me, devices)).toEqual({ kind: "unknown" });
  });

  it("before the lookup was ever fetched, only this device is known", () => {
    expect(deviceAuthor("c-laptop", me, undefined)).toEqual({ kind: "thisDevice" });
    expect(deviceAuthor("c-phone", me, undefined)).toEqual({ kind: "unknown" });
  });

  it("names a member by first and last name, one of them, or the e-mail address", () => {
    expect(memberName({ firstName: "Bea", lastName: "", email: "b@example.com" })).toBe("Bea");
    expect(memberName({ firstName: " ", lastName: "", email: "b@example.com" })).toBe("b@example.com");
  });
});
