import { AlertTriangle } from "lucide-react";
import { cn } from "#web/lib/utils.ts";
import { Alert, AlertDescription, AlertTitle, Button, FREE_DAILY_SEARCHES, Progress, useUpgrade } from "#web/kit.ts";

/** Spec §4: amber at 2 or fewer left, red at the limit; the bar is remaining ÷ 5. */
export function QuotaAlert({ remaining }: { remaining: number }) {
  const upgrade = useUpgrade();
  const atLimit = remaining <= 0;
  const low = remaining <= 2;
  const tone = atLimit ? "border-red-300 bg-red-50 text-red-900" : low ? "border-amber-300 bg-amber-50 text-amber-950" : "";
  const upgradeLink = upgrade.offered ? (
    <Button variant="link" className="h-auto p-0 text-inherit underline" onClick={() => void upgrade.start()}>
      Upgrade to Pro
    </Button>
  ) : null;
  return (
    <Alert className={cn("mb-4", tone)} data-state={atLimit ? "limit" : low ? "low" : "ok"}>
      <AlertTriangle className="size-4" aria-hidden="true" />
      <AlertTitle>{atLimit ? "Daily Limit Reached" : `${remaining} of ${FREE_DAILY_SEARCHES} free searches left today`}</AlertTitle>
      <AlertDescription className="space-y-2 text-inherit">
        {atLimit ? (
          <p>
            You've reached your free daily limit. Upgrade to Pro for unlimited searches. Last free search used. {upgradeLink}
          </p>
        ) : low ? (
          <p>
            {remaining} free {remaining === 1 ? "search" : "searches"} remaining. {upgradeLink}
          </p>
        ) : null}
        <Progress
          value={(Math.max(remaining, 0) / FREE_DAILY_SEARCHES) * 100}
          aria-label={`${remaining} of ${FREE_DAILY_SEARCHES} free searches remaining`}
          indicatorClassName={atLimit ? "bg-red-600" : low ? "bg-amber-500" : undefined}
        />
      </AlertDescription>
    </Alert>
  );
}
