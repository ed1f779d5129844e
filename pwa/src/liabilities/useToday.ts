// Today on this device's calendar (YYYY-MM-DD) as React state that turns over by itself: at the next
// local midnight (a timer), and whenever the page comes back (visibilitychange, focus), since a
// sleeping device or a background tab may fire the timer late or not at all. The tasks' overdue
// badges, the liabilities' plans and the flows' projections read it, so a screen left open
// overnight is right in the morning without waiting for some unrelated re-render.
import { useEffect, useState } from "react";
import { localToday } from "../time/localToday";

/** Milliseconds from `now` to the next local midnight (never 0: at least 1). */
export function untilMidnight(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return Math.max(1, next.getTime() - now.getTime());
}

export function useToday(): string {
  const [today, setToday] = useState(() => localToday());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      setToday(localToday());
      clearTimeout(timer);
      // A little past midnight, so the day has surely changed when it fires.
      timer = setTimeout(check, untilMidnight(new Date()) + 50);
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") check();
    };
    check();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("focus", check);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("focus", check);
    };
  }, []);
  return today;
}
