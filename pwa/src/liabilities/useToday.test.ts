import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { untilMidnight, useToday } from "./useToday";

describe("useToday (audit finding 8)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(2025, 2, 9, 23, 59, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test("turns over at local midnight by itself", () => {
    const { result } = renderHook(() => useToday());
    expect(result.current).toBe("2025-03-09");
    act(() => {
      vi.advanceTimersByTime(59_000);
    });
    expect(result.current).toBe("2025-03-09");
    act(() => {
      vi.advanceTimersByTime(1_100);
    });
    expect(result.current).toBe("2025-03-10");
    // And the next night too.
    act(() => {
      vi.advanceTimersByTime(24 * 3600_000);
    });
    expect(result.current).toBe("2025-03-11");
  });

  test("checks again when the page comes back or gets the focus (a sleeping device's timer is late)", () => {
    const { result } = renderHook(() => useToday());
    vi.setSystemTime(new Date(2025, 2, 12, 8, 0, 0)); // the clock moved; no timer has fired
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    expect(result.current).toBe("2025-03-12");
    vi.setSystemTime(new Date(2025, 2, 13, 8, 0, 0));
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    expect(result.current).toBe("2025-03-13");
  });

  test("untilMidnight", () => {
    expect(untilMidnight(new Date(2025, 2, 9, 23, 59, 0))).toBe(60_000);
    expect(untilMidnight(new Date(2025, 2, 9, 0, 0, 0))).toBe(24 * 3600_000);
  });
});
