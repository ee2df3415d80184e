import type { ApiStatus } from "#src/contract/status.ts";
import { Tooltip, TooltipContent, TooltipTrigger } from "#web/components/ui/tooltip.tsx";
import { Badge, providerCatalogue, providerIds } from "#web/shared-chunk.ts";

const TONES = { connected: "bg-emerald-600", degraded: "bg-amber-500", failing: "bg-red-600", checking: "bg-slate-400" } as const;

/**
 * Spec §2 "Connection Status", telling the truth (ADR 040): each provider's last check (its model
 * retrieved with its key) in the server's words: connected, simulated, or why it cannot answer and what to do.
 */
export function ConnectionStatus({ status }: { status: ApiStatus | undefined }) {
  // A failure, or a model shutting down within 30 days (ADR 061): both need the operator.
  const problems = providerIds.filter((id) => status?.providers[id].failure || status?.providers[id].shutdowns?.length);
  return (
    <section aria-labelledby="connection-status" className="rounded-lg border p-3">
      <h2 id="connection-status" className="mb-2 text-sm font-medium">
        Connection Status
      </h2>
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {providerIds.map((id) => {
          const health = status?.providers[id];
          const label = health?.label ?? "Not Connected";
          const simulated = status?.modes[id] === "simulated" && health?.state === "connected";
          return (
            <li key={id}>
              <Tooltip>
                <TooltipTrigger asChild>
                  <button type="button" className="flex items-center gap-2 rounded-sm">
                    <span className={`size-2 rounded-full ${simulated ? TONES.degraded : TONES[health?.state ?? "failing"]}`} aria-hidden="true" />
                    <span>{providerCatalogue[id].name}</span>
                    <Badge variant={label === "Connected" ? "secondary" : "outline"}>{label}</Badge>
                    <span className="sr-only">{health?.message}</span>
                  </button>
                </TooltipTrigger>
                <TooltipContent className="max-w-xs">{health?.message}</TooltipContent>
              </Tooltip>
            </li>
          );
        })}
      </ul>
      {problems.length > 0 ? (
        // The reason and the remedy in plain sight: an operator reads it without hovering.
        <ul className="mt-2 space-y-1 text-xs text-muted-foreground" aria-label="What a provider needs">
          {problems.map((id) => (
            <li key={id} className="break-words">
              <span className="font-medium text-foreground">{`${providerCatalogue[id].model}: `}</span>
              {status?.providers[id].message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
