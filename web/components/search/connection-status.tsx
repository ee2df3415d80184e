import type { ApiStatus } from "#src/contract/status.ts";
import { Tooltip, TooltipContent, TooltipTrigger } from "#web/components/ui/tooltip.tsx";
import { Badge, providerCatalogue, providerIds } from "#web/shared-chunk.ts";

/** Spec §2 "Connection Status", telling simulated providers apart from connected ones. */
export function ConnectionStatus({ status }: { status: ApiStatus | undefined }) {
  return (
    <section aria-labelledby="connection-status" className="rounded-lg border p-3">
      <h2 id="connection-status" className="mb-2 text-sm font-medium">
        Connection Status
      </h2>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {providerIds.map((id) => {
          const mode = status?.modes[id];
          const { name, env } = providerCatalogue[id];
          const label = mode === "live" ? "Connected" : mode === "simulated" ? "Simulated" : "Not Connected";
          const tone = mode === "live" ? "bg-emerald-600" : mode === "simulated" ? "bg-amber-500" : "bg-red-600";
          const explanation =
            mode === "live"
              ? `${name} answers with live web search.`
              : mode === "simulated"
                ? `${env.apiKey} is not set: answers come from a local simulator and are labelled Simulated.`
                : `${env.apiKey} is not set: this provider is not searched.`;
          return (
            <li key={id}>
              <Tooltip>
                <TooltipTrigger asChild>
                  <button type="button" className="flex items-center gap-2 rounded-sm">
                    <span className={`size-2 rounded-full ${tone}`} aria-hidden="true" />
                    <span>{name}</span>
                    <Badge variant={mode === "live" ? "secondary" : "outline"}>{label}</Badge>
                    <span className="sr-only">{explanation}</span>
                  </button>
                </TooltipTrigger>
                <TooltipContent className="max-w-xs">{explanation}</TooltipContent>
              </Tooltip>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
