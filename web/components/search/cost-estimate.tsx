import { useQuery } from "@tanstack/react-query";
import { estimateText } from "#src/core/cost.ts";
import { api, InfoTip, queries } from "#web/shared-chunk.ts";

/**
 * Before a Pro user starts a multi-iteration search, what it should cost ("about $3.10 for 50
 * iterations") and, on the ⓘ, how that is worked out (ADR 041). The server prices it: it knows the
 * connected providers, their models and the operator's price table.
 */
export default function CostEstimate({ iterations, id }: { iterations: number; id?: string }) {
  const { data } = useQuery(queries.estimate(api, iterations));
  if (!data) return null;
  return (
    <p id={id} className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="cost-estimate">
      <span>{`Estimated cost: ${estimateText(data, data.iterations)}`}</span>
      <InfoTip label="How the cost is estimated">{data.method}</InfoTip>
    </p>
  );
}
