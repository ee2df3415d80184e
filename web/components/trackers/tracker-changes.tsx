import { useQuery } from "@tanstack/react-query";
import type { ChangedItem, ProviderChanges, TopListChanges } from "#src/contract/changes.ts";
import { providerIds } from "#src/contract/providers.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import { changesIntro, changesNotReady, windowsText, withinNoiseText } from "#web/lib/changes.ts";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { Card, CardContent, providerCatalogue } from "#web/shared-chunk.ts";

const kindLabels = { products: "Products", companies: "Companies", domains: "Sources" } as const;

/**
 * What entered and left each provider's top 10s between the tracker's latest window of runs and up
 * to 7 runs before it: only moves beyond the run-to-run noise are listed; how many
 * others were within it is said.
 */
export function TrackerChanges() {
  const changes = useQuery(trackerQueries.changes(useTrackerSource()));
  return (
    <section aria-labelledby="changes-heading" className="space-y-3" data-testid="tracker-changes">
      <h2 id="changes-heading" className="text-lg font-semibold">
        What changed
      </h2>
      <QueryState query={changes} what="changes" skeletonClassName="h-20 w-full">
        {({ ready, window, providers }) =>
          !ready ? (
            <p className="text-muted-foreground">{changesNotReady(window)}</p>
          ) : (
            <>
              <p className="text-sm text-muted-foreground" data-testid="changes-intro">
                {changesIntro(window)}
              </p>
              <div className="grid gap-3">
                {providerIds.flatMap((id) => {
                  const found = providers[id];
                  return found ? [<ProviderCard key={id} name={providerCatalogue[id].name} changes={found} />] : [];
                })}
              </div>
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function ProviderCard({ name, changes }: { name: string; changes: ProviderChanges }) {
  return (
    <Card className="gap-2 py-3" data-testid="provider-changes">
      <CardContent className="space-y-3 px-4 text-sm">
        <div className="space-y-0.5">
          <h3 className="font-semibold">{name}</h3>
          <p className="text-xs text-muted-foreground">{windowsText(changes)}</p>
        </div>
        <div className="grid gap-4 md:grid-cols-3">
          {(Object.keys(kindLabels) as Array<keyof typeof kindLabels>).map((kind) => (
            <KindChanges key={kind} label={kindLabels[kind]} changes={changes[kind]} />
          ))}
        </div>
      </CardContent>
    </Card>
  );
}

function KindChanges({ label, changes }: { label: string; changes: TopListChanges }) {
  const listed = changes.entered.length > 0 || changes.left.length > 0;
  const noise = withinNoiseText(changes.withinNoise, listed);
  return (
    <div className="min-w-0 space-y-2">
      <h4 className="font-medium">{label}</h4>
      {listed ? (
        <>
          <ChangeList title="Entered the top 10" items={changes.entered} />
          <ChangeList title="Left the top 10" items={changes.left} />
        </>
      ) : noise ? null : (
        <p className="text-muted-foreground">The same top 10.</p>
      )}
      {noise ? (
        <p className="text-xs text-muted-foreground" data-testid="within-noise">
          {noise}
        </p>
      ) : null}
    </div>
  );
}

function ChangeList({ title, items }: { title: string; items: ChangedItem[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <p className="text-muted-foreground">{title}</p>
      <ul className="space-y-0.5" aria-label={title}>
        {items.map((item) => (
          <li key={item.name} className="break-words tabular-nums">
            <span className="font-medium">{item.name}</span>
            {` — ${item.after.count} of ${item.after.n} answers, was ${item.before.count} of ${item.before.n}`}
          </li>
        ))}
      </ul>
    </div>
  );
}
