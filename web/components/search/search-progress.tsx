import { Loader2 } from "lucide-react";
import type { ProviderId } from "#src/contract/providers.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import type { ProviderProgress } from "#web/lib/search-state.ts";
import { TruncatedText } from "#web/components/truncated-text.tsx";
import { Badge, Button, Card, CardContent, CardHeader, CardTitle, Progress, providerCatalogue, providerIds } from "#web/shared-chunk.ts";

type SearchProgressProps = {
  query: string;
  progress: Record<ProviderId, ProviderProgress>;
  modes?: Record<ProviderId, ProviderMode>;
  live: boolean;
  onCancel: () => void;
  /** Cancel was asked for; what finished is on its way. */
  cancelling?: boolean;
};

/** Per-provider counters that move as iterations really complete (estimated only in fallback). */
export function SearchProgress({ query, progress, modes, live, onCancel, cancelling = false }: SearchProgressProps) {
  return (
    <Card className="mx-auto mb-8 max-w-3xl" aria-live="polite">
      {/* A phone: the label, then the query cut to one line (whole on hover or tap) beside Cancel. */}
      <CardHeader className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 sm:flex sm:flex-row">
        <CardTitle className="col-span-2 flex shrink-0 items-center gap-2 text-base">
          <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />
          Searching all models for
        </CardTitle>
        <TruncatedText text={`“${query}”`} className="font-semibold sm:flex-1" />
        <Button variant="outline" size="sm" onClick={onCancel} disabled={cancelling}>
          {cancelling ? "Cancelling…" : "Cancel"}
        </Button>
      </CardHeader>
      <CardContent className="space-y-3">
        {providerIds.map((id) => {
          const p = progress[id];
          const done = p.completed + p.failed;
          const off = modes?.[id] === "off";
          const { name } = providerCatalogue[id];
          return (
            <div key={id} className="space-y-1" data-provider={id}>
              <div className="flex items-center justify-between gap-2 text-sm">
                <span className="flex items-center gap-2 font-medium">
                  {name}
                  {modes?.[id] === "simulated" ? <Badge variant="outline">Simulated</Badge> : null}
                </span>
                <span className="text-muted-foreground tabular-nums" data-testid={`progress-${id}`}>
                  {off ? "Not Connected" : `${done} / ${p.total}${p.failed ? ` (${p.failed} failed)` : ""}`}
                </span>
              </div>
              <Progress value={off ? 0 : (done / Math.max(p.total, 1)) * 100} aria-label={`${name}: ${done} of ${p.total} iterations done`} />
            </div>
          );
        })}
        {live ? null : <p className="text-xs text-muted-foreground">Live progress is unavailable; the counters are estimates.</p>}
      </CardContent>
    </Card>
  );
}
