import { FlaskConical } from "lucide-react";
import { TEST_MODE_NOTICE } from "#src/contract/billing.ts";
import { cn } from "#web/lib/utils.ts";

/** Honesty rule: wherever billing shows and no real card can be charged, it says so (once; `hint` adds what to pay with). */
export function TestModeNotice({ hint, className }: { hint?: string; className?: string }) {
  return (
    <p
      role="note"
      className={cn(
        "flex items-center gap-2 rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100",
        className,
      )}
    >
      <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
      {hint ? `${TEST_MODE_NOTICE} · ${hint}` : TEST_MODE_NOTICE}
    </p>
  );
}
