import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Db } from "#db/client.ts";
import { driverMessage } from "#src/server/http/errors.ts";
import type { SpendService } from "#src/server/services/spend/index.ts";
import { type GaugeReading, scrapeFamilies, type ScrapeFamily } from "./scrape.ts";

import type { CallOutcome } from "./providers.ts";

export { instrumentProviders } from "./providers.ts";

/** Seconds: from a tenth of a second to an hour, for provider calls (a 100-iteration search's call may wait minutes for 429s). */
const CALL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600];
/** Seconds: a tick handled within a second is on time; pg-boss's own schedule check runs every 30 s. */
const LATENESS_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600];

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * What operators scrape at GET /metrics (Prometheus text format). One registry per app, never
 * prom-client's global one: tests build several apps in one process, and each instance reports its
 * own. Counters and histograms are this process's; the families read from the database at scrape
 * time (scrape.ts) are the deployment's, the same on every instance.
 */
export function createMetrics({ db, spend }: { db: Db; spend: Pick<SpendService, "today"> }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const calls = new Counter({
    name: "aisc_provider_calls_total",
    help: "Provider calls made by this instance (searches and trackers' runs alike), by provider, kind of call (search, or structured: reading an answer, writing variants) and outcome: ok, a failure kind (rate_limited, provider_error, unreachable, key_refused, quota_exhausted, model_not_found), timeout (the call's time limit or the search's deadline), aborted (cancelled, shutting down). Each retry is a call.",
    labelNames: ["provider", "call", "outcome"],
    registers: [registry],
  });
  const callSeconds = new Histogram({
    name: "aisc_provider_call_duration_seconds",
    help: "How long provider calls made by this instance took, by provider, kind of call and outcome, including any wait for this instance's PROVIDER_CONCURRENCY.",
    labelNames: ["provider", "call", "outcome"],
    buckets: CALL_BUCKETS,
    registers: [registry],
  });
  const lateness = new Histogram({
    name: "aisc_tracker_tick_lateness_seconds",
    help: "For each scheduled tracker run this instance made: when the run was made minus the schedule time it stands for.",
    buckets: LATENESS_BUCKETS,
    registers: [registry],
  });
  const scrapeErrors = new Counter({
    name: "aisc_metrics_scrape_errors_total",
    help: "Scrapes of this instance where a family read from the database failed and was left out, by family.",
    labelNames: ["family"],
    registers: [registry],
  });
  const families = scrapeFamilies({ db, spend });
  // Each family at 0 from the start, so a rate() over it has a first sample.
  for (const family of families) scrapeErrors.inc({ family: family.name }, 0);

  return {
    /** prom-client's content type for the text format (version 0.0.4). */
    contentType: registry.contentType,

    /** One provider call ended: counted and timed. */
    providerCall(provider: string, call: "search" | "structured", outcome: CallOutcome, seconds: number): void {
      calls.inc({ provider, call, outcome });
      callSeconds.observe({ provider, call, outcome }, seconds);
    },

    /** A scheduled run was made this late after its schedule time. */
    tickLateness(seconds: number): void {
      lateness.observe(Math.max(0, seconds));
    },

    /**
     * The exposition: this process's metrics, then each database family read now. A family whose
     * read fails is left out (and counted in aisc_metrics_scrape_errors_total), never the scrape.
     */
    async render(): Promise<string> {
      const now = new Registry();
      await Promise.all(families.map((family) => readInto(now, family)));
      return `${await registry.metrics()}\n${await now.metrics()}`;
    },
  };

  async function readInto(target: Registry, family: ScrapeFamily): Promise<void> {
    let gauges: GaugeReading[];
    try {
      gauges = await family.read();
    } catch (error) {
      scrapeErrors.inc({ family: family.name });
      // The driver's words alone: neither the query nor the request (which carries the token).
      console.error(`Metrics: ${family.name} left out of this scrape: ${driverMessage(error)}`);
      return;
    }
    for (const { name, help, labelNames, samples } of gauges) {
      const gauge = new Gauge({ name, help, labelNames, registers: [target] });
      for (const { labels, value } of samples) gauge.set(labels, value);
    }
  }
}
