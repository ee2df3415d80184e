import { useSyncExternalStore } from "react";
import { formatDate, relativeTime } from "#src/core/dates.ts";

// One clock for every relative time on the page, ticking while any of them is shown.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, 30_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * "5 minutes ago", or 'Unknown date' (spec §2). The server and the hydrating browser do not share
 * a clock, so both render the fixed date first (`getServerSnapshot` is null) and the browser then
 * switches to the relative text; a client-side navigation shows it at once.
 */
export function RelativeTime({ value }: { value: string | null | undefined }) {
  const clock = useSyncExternalStore(
    subscribe,
    () => now,
    () => null,
  );
  const valid = Boolean(value) && !Number.isNaN(new Date(value ?? "").getTime());
  if (!valid || !value) return <span>Unknown date</span>;
  const absolute = formatDate(value);
  return (
    <time dateTime={value} title={absolute}>
      {clock === null ? absolute : relativeTime(value, clock)}
    </time>
  );
}
