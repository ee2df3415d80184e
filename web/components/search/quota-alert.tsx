import { AlertTriangle } from "lucide-react";
import { useRef } from "react";
import { cn } from "#web/lib/utils.ts";
import { Alert, AlertDescription, AlertTitle, Button, FREE_DAILY_SEARCHES, Progress, useStartUpgrade } from "#web/shared-chunk.ts";

const TONE = {
  ok: { alert: "", bar: undefined },
  low: { alert: "border-amber-300 bg-amber-50 text-amber-950", bar: "bg-amber-500" },
  limit: { alert: "border-red-300 bg-red-50 text-red-900", bar: "bg-red-600" },
} as const;

/**
 * Spec §4: one message per state, in the spec's words. 3–5 left: neutral, no warning. 2 or fewer:
 * amber, "n free searches remaining". None: red, "Last free search used" when this visit used it,
 * the 'Daily Limit Reached' alert when the visitor arrives at the limit. The bar is remaining ÷ 5.
 */
export function QuotaAlert({ remaining }: { remaining: number }) {
  const upgrade = useStartUpgrade();
  // Whether this visit has seen searches left: then reaching 0 is the last search just used.
  const hadSearchesLeft = useRef(remaining > 0);
  if (remaining > 0) hadSearchesLeft.current = true;
  const state = remaining <= 0 ? "limit" : remaining <= 2 ? "low" : "ok";
  const left = Math.max(remaining, 0);
  const upgradeLink = upgrade.offered ? (
    <Button variant="link" className="h-auto p-0 text-inherit underline" onClick={() => void upgrade.start()}>
      Upgrade to Pro
    </Button>
  ) : null;
  const remainingText = `${left} free ${left === 1 ? "search" : "searches"} remaining`;
  const title = state !== "limit" ? remainingText : hadSearchesLeft.current ? "Last free search used" : "Daily Limit Reached";
  return (
    <Alert className={cn("mb-4", TONE[state].alert)} data-state={state}>
      {state === "ok" ? null : <AlertTriangle className="size-4" aria-hidden="true" />}
      <AlertTitle className="line-clamp-none">
        <span className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span>{title}</span>
          {state === "low" || (state === "limit" && hadSearchesLeft.current) ? upgradeLink : null}
        </span>
      </AlertTitle>
      <AlertDescription className="space-y-2 text-inherit">
        {state === "limit" && !hadSearchesLeft.current ? (
          <p>You've reached your free daily limit. Upgrade to Pro for unlimited searches. {upgradeLink}</p>
        ) : null}
        <Progress
          value={(left / FREE_DAILY_SEARCHES) * 100}
          aria-label={`${left} of ${FREE_DAILY_SEARCHES} free searches remaining`}
          indicatorClassName={TONE[state].bar}
        />
      </AlertDescription>
    </Alert>
  );
}
