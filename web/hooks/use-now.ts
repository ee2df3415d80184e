import { useEffect, useState } from "react";

/** The texts read in whole minutes ("in 5 minutes", "due now", "3 minutes ago") within an hour of their time: 15 s catches each change, the 45 s "just now" edge too. */
const NEAR_STEP_MS = 15_000;
/** Further away they read in hours or days, and change on a whole minute from their time. */
const FAR_STEP_MS = 60_000;
const NEAR_MS = 60 * 60_000;

/**
 * The clock, for a text written against it ("in 3 hours", "due now"): it renders again when the text
 * can next change, on steps counted from `anchor` (the time the text is about), so "in 1 minute" turns
 * to "due now" on time. The server's render and the first in the browser read the clock once each
 * (their texts carry suppressHydrationWarning); it ticks only in the browser, after hydration.
 */
export function useNow(anchor?: string | null): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const at = anchor ? Date.parse(anchor) : Number.NaN;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      const current = Date.now();
      const from = Number.isNaN(at) ? 0 : at;
      const step = !Number.isNaN(at) && Math.abs(at - current) < NEAR_MS ? NEAR_STEP_MS : FAR_STEP_MS;
      // The time to the next step from the anchor; a few ms past it, so the text has turned.
      const wait = step - ((((current - from) % step) + step) % step) + 5;
      timer = setTimeout(() => {
        setNow(new Date());
        schedule();
      }, wait);
    };
    schedule();
    return () => clearTimeout(timer);
  }, [anchor]);
  return now;
}
