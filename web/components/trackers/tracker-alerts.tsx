import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import { formatDate } from "#src/core/dates.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import { alertStatistics } from "#web/lib/trend.ts";
import { alertRuleNote, alertText, NO_TRACKER_ALERTS } from "#web/lib/alert-words.ts";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { Badge, Card, CardContent, providerCatalogue } from "#web/shared-chunk.ts";

const kindLabels = { rose: "Rose", fell: "Fell", "model-changed": "Model changed" } as const;

/**
 * The tracker's alerts (ADR 050's rule, ADR 045's before it), newest first: what moved,
 * both windows, the test (p, q, and the runs' spread it counted with), and the answers behind it.
 * One decided by the earlier rule keeps its record, and says it may be noise.
 */
export function TrackerAlerts() {
  const source = useTrackerSource();
  const alerts = useQuery(trackerQueries.alerts(source));
  return (
    <section aria-labelledby="alerts-heading" className="space-y-3 print:break-before-page">
      <h2 id="alerts-heading" className="text-lg font-semibold">
        Alerts
      </h2>
      <QueryState query={alerts} what="alerts" skeletonClassName="h-20 w-full">
        {(list) =>
          list.length === 0 ? (
            <p className="text-muted-foreground">{NO_TRACKER_ALERTS}</p>
          ) : (
            <ul className="space-y-2">
              {list.map((alert) => {
                const statistics = alertStatistics(alert);
                const note = alertRuleNote(alert);
                return (
                  <li key={alert.id}>
                    <Card className="gap-2 py-3" data-testid="tracker-alert">
                      <CardContent className="space-y-1.5 px-4 text-sm">
                        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                          <Badge variant={alert.kind === "fell" ? "destructive" : alert.kind === "rose" ? "default" : "outline"}>
                            {kindLabels[alert.kind]}
                          </Badge>
                          <span className="text-muted-foreground">{formatDate(alert.at)}</span>
                        </div>
                        <p className="font-medium break-words">{alertText(alert, providerCatalogue[alert.provider].name)}</p>
                        {statistics ? <p className="text-muted-foreground tabular-nums">{statistics}</p> : null}
                        {note ? (
                          <p className="text-xs text-muted-foreground" data-testid="alert-rule-note">
                            {note}
                          </p>
                        ) : null}
                        {source.linksToSearches && alert.searchIds.length > 0 ? (
                          <p className="flex flex-wrap gap-x-3 gap-y-1">
                            <span className="text-muted-foreground">The answers behind it:</span>
                            {alert.searchIds.map((id, index) => (
                              <Link key={id} href={`/search/${id}`} className="underline underline-offset-4 hover:text-primary">
                                {`Saved search ${index + 1}`}
                              </Link>
                            ))}
                          </p>
                        ) : null}
                      </CardContent>
                    </Card>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
