import type { Rate } from "#src/contract/lens.ts";
import { cn } from "#web/lib/utils.ts";
import { formatRate } from "#web/lib/workbench.ts";

/**
 * A share as a bar with its 95% interval as a whisker (as the Frequency Analysis draws them),
 * read out as "label: 60% (23–88%)".
 */
export function RateBar({ rate, label, className }: { rate: Pick<Rate, "percentage" | "low" | "high">; label: string; className?: string }) {
  const low = clamp(rate.low);
  const high = clamp(rate.high);
  return (
    <div
      role="img"
      aria-label={`${label}: ${formatRate(rate)}, with its 95% interval`}
      className={cn("relative h-2 w-full rounded-full bg-primary/20", className)}
    >
      <div className="h-full rounded-full bg-primary" style={{ width: `${clamp(rate.percentage)}%` }} />
      <span
        className="absolute top-1/2 h-3 -translate-y-1/2 border-x-2 border-foreground/70"
        style={{ left: `${low}%`, width: `${Math.max(high - low, 0)}%` }}
        aria-hidden="true"
      >
        <span className="absolute top-1/2 left-0 h-px w-full -translate-y-1/2 bg-foreground/70" />
      </span>
    </div>
  );
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}
