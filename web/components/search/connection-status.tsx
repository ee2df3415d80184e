import { failureLabels, type ProviderId } from "#src/contract/providers.ts";
import type { ApiStatus } from "#src/contract/status.ts";
import { Tooltip, TooltipContent, TooltipTrigger } from "#web/components/ui/tooltip.tsx";
import { Badge, providerCatalogue, providerIds } from "#web/shared-chunk.ts";

/**
 * Spec §2 "Connection Status", telling the truth (ADR 040): each provider's last check (its model
 * retrieved with its key) says connected, simulated, or why it cannot answer and what to do.
 */
export function ConnectionStatus({ status }: { status: ApiStatus | undefined }) {
  const problems = providerIds.flatMap((id) => {
    const health = status?.providers[id];
    return health?.message && health.state !== "connected" && health.state !== "checking" ? [{ id, message: health.message }] : [];
  });
  return (
    <section aria-labelledby="connection-status" className="rounded-lg border p-3">
      <h2 id="connection-status" className="mb-2 text-sm font-medium">
        Connection Status
      </h2>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {providerIds.map((id) => {
          const { label, tone, explanation } = describe(id, status);
          return (
            <li key={id}>
              <Tooltip>
                <TooltipTrigger asChild>
                  <button type="button" className="flex items-center gap-2 rounded-sm">
                    <span className={`size-2 rounded-full ${tone}`} aria-hidden="true" />
                    <span>{providerCatalogue[id].name}</span>
                    <Badge variant={label === "Connected" ? "secondary" : "outline"}>{label}</Badge>
                    <span className="sr-only">{explanation}</span>
                  </button>
                </TooltipTrigger>
                <TooltipContent className="max-w-xs">{explanation}</TooltipContent>
              </Tooltip>
            </li>
          );
        })}
      </ul>
      {problems.length > 0 ? (
        // The reason and the remedy in plain sight: an operator reads it without hovering.
        <ul className="mt-2 space-y-1 text-xs text-muted-foreground" aria-label="Why a provider cannot answer">
          {problems.map(({ id, message }) => (
            <li key={id} className="break-words">
              <span className="font-medium text-foreground">{`${providerCatalogue[id].model}: `}</span>
              {message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The badge, its colour and the sentence behind it, from the mode and the last check. */
function describe(id: ProviderId, status: ApiStatus | undefined): { label: string; tone: string; explanation: string } {
  const mode = status?.modes[id];
  const health = status?.providers[id];
  const { name, env } = providerCatalogue[id];
  if (health?.state === "failing" && health.failure) return { label: failureLabels[health.failure], tone: "bg-red-600", explanation: health.message ?? "" };
  if (mode === "off" || !health) return { label: "Not Connected", tone: "bg-red-600", explanation: `${env.apiKey} is not set: this provider is not searched.` };
  if (health.state === "checking") return { label: "Checking…", tone: "bg-slate-400", explanation: `Checking ${health.model} with its key.` };
  const simulated = mode === "simulated";
  const base = simulated
    ? `${env.apiKey} is not set: answers come from a local simulator and are labelled Simulated.`
    : `${name} answers with live web search (${health.model}).`;
  if (health.state === "degraded")
    return { label: simulated ? "Simulated" : "Connected", tone: "bg-amber-500", explanation: `${base} ${health.message ?? ""}` };
  return { label: simulated ? "Simulated" : "Connected", tone: simulated ? "bg-amber-500" : "bg-emerald-600", explanation: base };
}
