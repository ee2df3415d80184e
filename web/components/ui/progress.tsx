import type * as React from "react";

import { cn } from "#web/lib/utils.ts";

/**
 * shadcn's Progress API on a plain element (ADR 006): the attributes Radix's primitive gives it
 * (role, aria values, data-state), without the primitive and its context module on the first page,
 * where the free tier's quota bar shows it.
 */
function Progress({
  className,
  indicatorClassName,
  value,
  max = 100,
  ...props
}: React.ComponentProps<"div"> & {
  /** Done so far, from 0 to `max`; absent or null: not known (indeterminate). */
  value?: number | null;
  max?: number;
  /** Extra classes for the filled bar, e.g. "bg-amber-500" or "bg-destructive". */
  indicatorClassName?: string;
}) {
  const known = typeof value === "number" && Number.isFinite(value);
  const percent = known && max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  const state = !known ? "indeterminate" : value >= max ? "complete" : "loading";
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={known ? value : undefined}
      aria-valuetext={known ? `${Math.round(percent)}%` : undefined}
      data-state={state}
      data-value={known ? value : undefined}
      data-max={max}
      data-slot="progress"
      className={cn("bg-primary/20 relative h-2 w-full overflow-hidden rounded-full", className)}
      {...props}
    >
      <div
        data-slot="progress-indicator"
        data-state={state}
        className={cn("bg-primary h-full w-full flex-1 transition-all", indicatorClassName)}
        style={{ transform: `translateX(-${100 - percent}%)` }}
      />
    </div>
  );
}

export { Progress };
