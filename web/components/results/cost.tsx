import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import type { Cost, SearchCost } from "#src/contract/search-result.ts";
import { costParts, formatCost } from "#src/core/cost.ts";
import { Tooltip, TooltipContent, TooltipTrigger } from "#web/components/ui/tooltip.tsx";
import { cn } from "#web/lib/utils.ts";

/**
 * "Cost $0.061" with its breakdown on hover and keyboard focus (ADR 041): what the search tokens,
 * the web searches and reading the answer cost; for a whole search, each provider's too.
 */
export default function CostLabel({ cost, perProvider, className }: { cost: Cost; perProvider?: SearchCost["providers"]; className?: string }) {
  const text = `Cost ${formatCost(cost)}`;
  return (
    <>
      {/* On paper buttons are left off: the figure is printed as text, without its breakdown. */}
      <span className={cn("hidden text-xs font-medium tabular-nums text-muted-foreground print:inline", className)}>{text}</span>
      <Tooltip>
        <TooltipTrigger asChild>
          <button
            type="button"
            className={cn(
              "rounded-sm text-xs font-medium tabular-nums text-muted-foreground underline decoration-dotted underline-offset-2 hover:text-foreground",
              className,
            )}
          >
            {text}
          </button>
        </TooltipTrigger>
        <TooltipContent className="max-w-xs">
          <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 text-xs">
            {perProvider
              ? providerIds.flatMap((id) => {
                  const part = perProvider[id];
                  return part ? [<Row key={id} label={providerCatalogue[id].name} value={formatCost(part)} />] : [];
                })
              : null}
            {costParts(cost).map((part) => (
              <Row key={part.label} label={part.label} value={part.value} />
            ))}
          </dl>
        </TooltipContent>
      </Tooltip>
    </>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="text-right tabular-nums">{value}</dd>
    </>
  );
}
