// The cooldown of a "resend the code" button: seconds until the server takes another request (from
// its answer, or from a 429's Retry-After), counting down every second. Meanwhile the button shows
// the countdown and stays disabled, and the code already sent can still be typed and confirmed.
// Shared by the verify-e-mail screen and the re-verification dialog.
import { useEffect, useState } from "react";
import { ApiError, ERROR_CODES } from "../api/client";

export interface ResendCooldown {
  /** Whole seconds left; 0 when another code may be asked for. */
  secondsLeft: number;
  /** Starts (or restarts) the countdown; undefined or 0 leaves it as it is. */
  start: (seconds: number | undefined) => void;
  /** Starts the countdown from a 429's Retry-After; true when the error was that. */
  fromError: (error: unknown) => boolean;
}

export function useResendCooldown(now: () => number = Date.now): ResendCooldown {
  const [until, setUntil] = useState(0);
  const [tick, setTick] = useState(() => now());
  useEffect(() => {
    if (until <= tick) return;
    const timer = setTimeout(() => setTick(now()), Math.min(1000, until - tick));
    return () => clearTimeout(timer);
  }, [until, tick, now]);
  const start = (seconds: number | undefined) => {
    if (!seconds || seconds <= 0) return;
    const at = now();
    setTick(at);
    setUntil(at + seconds * 1000);
  };
  return {
    secondsLeft: Math.max(0, Math.ceil((until - tick) / 1000)),
    start,
    fromError: (error) => {
      if (error instanceof ApiError && error.code === ERROR_CODES.tooManyRequests) {
        start(error.retryAfter ?? 60);
        return true;
      }
      return false;
    },
  };
}
