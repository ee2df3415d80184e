import { Info } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "#web/lib/utils.ts";
import { Tooltip, TooltipContent, TooltipTrigger } from "#web/components/ui/tooltip.tsx";

/** An ⓘ button that explains the text beside it in a tooltip (on hover and on keyboard focus). */
export function InfoTip({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button type="button" className={cn("shrink-0 rounded-sm text-muted-foreground hover:text-foreground", className)} aria-label={label}>
          <Info className="size-4" aria-hidden="true" />
        </button>
      </TooltipTrigger>
      <TooltipContent className="max-w-xs">{children}</TooltipContent>
    </Tooltip>
  );
}
