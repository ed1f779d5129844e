// The annuity and the balance schedule against figures worked out by hand (and checked against the
// usual mortgage tables), and the edge cases: rate 0, end date passed, no dates, rounding.
import Decimal from "decimal.js";
import { describe, expect, test } from "vitest";
import { annuityPayment, monthsLeft, outstandingOn, paymentPlan, yearlySchedule } from "./amortization";
import { addMonths, dayNumber, fromDayNumber, monthStart, parseYmd } from "./calendar";

describe("calendar", () => {
  test("adding months keeps the day, clamped to shorter months, always from the anchor", () => {
    expect(addMonths("2025-01-31", 1)).toBe("2025-02-28");
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2025-01-31", 2)).toBe("2025-03-31");
    expect(addMonths("2025-11-15", 3)).toBe("2026-02-15");
    expect(addMonths("2025-03-15", -3)).toBe("2024-12-15");
    expect(monthStart("2025-03-17")).toBe("2025-03-01");
  });
  test("day numbers round-trip and refuse non-dates", () => {
    expect(fromDayNumber(dayNumber("2024-02-29"))).toBe("2024-02-29");
    expect(dayNumber("2025-01-01") - dayNumber("2024-01-01")).toBe(366);
    expect(parseYmd("2025-02-30")).toBeUndefined();
    expect(() => addMonths("31/01/2025", 1)).toThrow(RangeError);
  });
});

describe("monthsLeft", () => {
  test("whole months, a part month counting as one payment", () => {
    expect(monthsLeft("2025-01-15", "2026-01-15")).toBe(12);
    expect(monthsLeft("2025-01-15", "2026-01-16")).toBe(13);
    expect(monthsLeft("2025-01-15", "2026-01-14")).toBe(12);
    expect(monthsLeft("2025-01-31", "2025-02-28")).toBe(1);
    expect(monthsLeft("2025-01-15", "2025-01-20")).toBe(1);
  });
  test("zero when the end date is today or past", () => {
    expect(monthsLeft("2025-01-15", "2025-01-15")).toBe(0);
    expect(monthsLeft("2025-01-15", "2024-12-31")).toBe(0);
  });
});

describe("annuityPayment", () => {
  test("the textbook figures", () => {
    // 200,000 at 3 % over 30 years: 843.21 a month (every mortgage calculator says so).
    expect(annuityPayment("200000", "3", 360)).toBe("843.21");
    // 150,000 at 2.5 % over 25 years: 672.93 (672.9251… rounded).
    expect(annuityPayment("150000", "2.5", 300)).toBe("672.93");
    // 10,000 at 6 % over 12 months: 860.66.
    expect(annuityPayment("10000", "6", 12)).toBe("860.66");
  });
  test("rate 0 divides the amount evenly", () => {
    expect(annuityPayment("12000", "0", 24)).toBe("500");
    expect(annuityPayment("100", "0", 3)).toBe("33.33");
  });
  test("the currency's decimals", () => {
    expect(annuityPayment("1000000", "5", 12, 0)).toBe("85607");
  });
  test("refuses a number of months below one", () => {
    expect(() => annuityPayment("1000", "1", 0)).toThrow(RangeError);
  });
});

describe("paymentPlan", () => {
  test("the schedule ends at exactly zero and adds up", () => {
    const plan = paymentPlan({ amountOutstanding: "10000", rate: "6", endDate: "2026-01-15" }, "2025-01-15");
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.payment).toBe("860.66");
    expect(plan.months).toBe(12);
    expect(plan.anchor).toBe("2025-01-15");
    expect(plan.schedule[0]).toEqual({ month: 1, date: "2025-02-15", payment: "860.66", interest: "50", principal: "810.66", balance: "9189.34" });
    const last = plan.schedule.at(-1)!;
    expect(last.date).toBe("2026-01-15");
    expect(last.balance).toBe("0");
    // Every principal part adds up to the amount owed; payments = principal + interest.
    const principal = plan.schedule.reduce((s, r) => s.plus(r.principal), new Decimal(0));
    expect(principal.toFixed()).toBe("10000");
    expect(new Decimal(plan.totalPaid).minus(plan.totalInterest).toFixed()).toBe("10000");
    // The last payment absorbs the rounding: within a cent or two of the others.
    expect(new Decimal(last.payment).minus(plan.payment).abs().lte("0.05")).toBe(true);
    expect(plan.totalInterest).toBe("327.96");
  });

  test("rate 0: equal payments, no interest", () => {
    const plan = paymentPlan({ amountOutstanding: "1000", rate: "0", endDate: "2025-04-10" }, "2025-01-10");
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.schedule.map((r) => r.payment)).toEqual(["333.33", "333.33", "333.34"]);
    expect(plan.totalInterest).toBe("0");
    expect(plan.schedule.at(-1)!.balance).toBe("0");
  });

  test("a debt that has not started is scheduled from its start date", () => {
    const plan = paymentPlan({ amountOutstanding: "1200", rate: "0", startDate: "2026-01-01", endDate: "2027-01-01" }, "2025-06-01");
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.anchor).toBe("2026-01-01");
    expect(plan.months).toBe(12);
    expect(plan.schedule[0]!.date).toBe("2026-02-01");
  });

  test("a started debt counts from today, whatever its start date", () => {
    const plan = paymentPlan({ amountOutstanding: "200000", rate: "3", startDate: "2000-01-01", endDate: "2055-03-01" }, "2025-03-01");
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.months).toBe(360);
    expect(plan.payment).toBe("843.21");
  });

  test("a part month at the end is one more payment, due on the end date", () => {
    const plan = paymentPlan({ amountOutstanding: "300", rate: "0", endDate: "2025-03-20" }, "2025-01-10");
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.schedule.map((r) => r.date)).toEqual(["2025-02-10", "2025-03-10", "2025-03-20"]);
  });

  test("no plan without a rate, without an end date, after the end date, or with nothing owed", () => {
    expect(paymentPlan({ amountOutstanding: "1000", endDate: "2030-01-01" }, "2025-01-01")).toEqual({ ok: false, reason: "noRate" });
    expect(paymentPlan({ amountOutstanding: "1000", rate: "", endDate: "2030-01-01" }, "2025-01-01")).toEqual({ ok: false, reason: "noRate" });
    expect(paymentPlan({ amountOutstanding: "1000", rate: "3" }, "2025-01-01")).toEqual({ ok: false, reason: "noEndDate" });
    expect(paymentPlan({ amountOutstanding: "1000", rate: "3", endDate: "2024-12-31" }, "2025-01-01")).toEqual({ ok: false, reason: "ended" });
    expect(paymentPlan({ amountOutstanding: "1000", rate: "3", endDate: "2025-01-01" }, "2025-01-01")).toEqual({ ok: false, reason: "ended" });
    expect(paymentPlan({ amountOutstanding: "0", rate: "3", endDate: "2030-01-01" }, "2025-01-01")).toEqual({ ok: false, reason: "paidOff" });
  });

  test("a debt that has not started is never told its end date has passed (audit finding 6)", () => {
    // Start = end, both ahead: one payment of the whole amount on that day.
    const plan = paymentPlan({ amountOutstanding: "5000", rate: "3", startDate: "2026-01-01", endDate: "2026-01-01" }, "2025-06-10");
    if (!plan.ok) throw new Error(plan.reason);
    expect([plan.months, plan.payment, plan.totalInterest]).toEqual([1, "5000", "0"]);
    expect(plan.schedule).toEqual([{ month: 1, date: "2026-01-01", payment: "5000", interest: "0", principal: "5000", balance: "0" }]);
  });

  test("no plan at a rate of -100 % or less (the schema refuses it; a record saved before may have it)", () => {
    // Before: -100 gave a payment of 1 178.53 and interest of -71 715.31; -1500 a payment of 0.
    for (const rate of ["-100", "-1500", "-9999.99"]) {
      expect(paymentPlan({ amountOutstanding: "100000", rate, endDate: "2027-06-15" }, "2025-06-15")).toEqual({ ok: false, reason: "badRate" });
    }
    expect(paymentPlan({ amountOutstanding: "100000", rate: "-99.99", endDate: "2027-06-15" }, "2025-06-15").ok).toBe(true);
  });

  test("a negative rate still amortizes to zero", () => {
    const plan = paymentPlan({ amountOutstanding: "1000", rate: "-0.5", endDate: "2026-01-01" }, "2025-01-01");
    if (!plan.ok) throw new Error(plan.reason);
    expect(new Decimal(plan.payment).lt("83.34")).toBe(true);
    expect(plan.schedule.at(-1)!.balance).toBe("0");
  });
});

describe("rolled forward from the day the amount was typed (audit finding 1)", () => {
  // 100 000 € at 3 %, typed on 2025-01-15, ending 2055-01-15 (hand-calculated French amortization).
  const mortgage = { amountOutstanding: "100000", rate: "3", endDate: "2055-01-15", amountAsOf: "2025-01-15" };

  test("on the day it was typed: 421,60 € over 360 months from 100 000 €", () => {
    const plan = paymentPlan(mortgage, "2025-01-15");
    if (!plan.ok) throw new Error(plan.reason);
    expect([plan.payment, plan.months, plan.principal, plan.anchor]).toEqual(["421.6", 360, "100000", "2025-01-15"]);
    expect(outstandingOn(mortgage, "2025-01-15")).toBe("100000");
  });

  test("a year later: the same 421,60 €, and the 12 payments made are off the balance (97 912,24 €)", () => {
    const plan = paymentPlan(mortgage, "2026-01-15");
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.payment).toBe("421.6");
    expect(plan.principal).toBe("97912.24");
    expect(plan.months).toBe(348);
    expect(plan.anchor).toBe("2026-01-15");
    expect(plan.schedule[0]).toMatchObject({ month: 1, date: "2026-02-15" });
    expect(plan.schedule.at(-1)).toMatchObject({ date: "2055-01-15", balance: "0" });
    expect(outstandingOn(mortgage, "2026-01-15")).toBe("97912.24");
    // The day before the 12th payment, 11 are off.
    const december = paymentPlan(mortgage, "2025-12-15");
    expect(december.ok && december.principal).toBe(outstandingOn(mortgage, "2026-01-14"));
    expect(december.ok && december.months).toBe(349);
    // The principal still to pay is the balance: the rest of the one schedule.
    const principal = plan.schedule.reduce((s, r) => s.plus(r.principal), new Decimal(0));
    expect(principal.toFixed()).toBe("97912.24");
  });

  test("five years on: 421,60 € and 88 906,60 €; days before the end: one payment of about 421 €", () => {
    const plan = paymentPlan(mortgage, "2030-01-15");
    if (!plan.ok) throw new Error(plan.reason);
    expect([plan.payment, plan.principal]).toEqual(["421.6", "88906.6"]);
    const last = paymentPlan(mortgage, "2054-12-20");
    if (!last.ok) throw new Error(last.reason);
    expect(last.months).toBe(1);
    expect(new Decimal(last.totalPaid).minus("421.6").abs().lt(3)).toBe(true);
    expect(paymentPlan(mortgage, "2055-01-15")).toEqual({ ok: false, reason: "ended" });
    expect(outstandingOn(mortgage, "2055-01-15")).toBe("0");
  });

  test("without a date (or a date ahead of today) the amount is today's; without a plan it stays as typed", () => {
    const { amountAsOf: _, ...undated } = mortgage;
    expect((paymentPlan(undated, "2026-01-15") as { principal: string }).principal).toBe("100000");
    expect(outstandingOn(undated, "2026-01-15")).toBe("100000");
    expect(outstandingOn({ ...mortgage, amountAsOf: "2027-01-01" }, "2026-01-15")).toBe("100000");
    expect(outstandingOn({ amountOutstanding: "850.40", amountAsOf: "2020-01-01" }, "2026-01-15")).toBe("850.4");
    expect(outstandingOn({ ...mortgage, rate: undefined }, "2026-01-15")).toBe("100000");
  });

  test("a debt typed before it starts is scheduled from its start date and rolls from there", () => {
    const terms = { amountOutstanding: "1200", rate: "0", startDate: "2026-01-01", endDate: "2027-01-01", amountAsOf: "2025-06-01" };
    expect(outstandingOn(terms, "2025-12-31")).toBe("1200");
    expect(outstandingOn(terms, "2026-03-01")).toBe("1000");
    const plan = paymentPlan(terms, "2026-03-01");
    if (!plan.ok) throw new Error(plan.reason);
    expect([plan.payment, plan.months, plan.principal]).toEqual(["100", 10, "1000"]);
  });
});

describe("yearlySchedule", () => {
  test("sums a calendar year's payments and keeps its last balance", () => {
    const plan = paymentPlan({ amountOutstanding: "1200", rate: "0", endDate: "2026-07-01" }, "2025-07-01");
    if (!plan.ok) throw new Error(plan.reason);
    expect(yearlySchedule(plan.schedule)).toEqual([
      // August to December 2025: five payments of 100; January to July 2026: seven.
      { year: 2025, paid: "500", interest: "0", principal: "500", balance: "700" },
      { year: 2026, paid: "700", interest: "0", principal: "700", balance: "0" },
    ]);
  });
});
