import type { ApiClient } from "#src/client/api.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { DEFAULT_ALERT_RULES } from "#src/core/alerts.ts";
import { waitFor } from "./wait.ts";

/**
 * A tracker whose alerts the simulator can make: two CRM questions at 10 answers each per
 * provider, HubSpot and a competitor with their own domains, so that a provider that stops
 * searching the web (simulator fault `no_search`) visibly stops citing hubspot.com.
 */
export const alertingTracker = {
  name: "CRM visibility",
  queries: ["best crm for startups", "best crm for small business"],
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  competitors: [{ name: "Salesforce", domains: ["salesforce.com"] }],
  iterations: 10,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

/** Two CRM questions at 3 answers each per provider, HubSpot with two competitors: what the trend and the headline are read from. */
export const crmTracker = {
  name: "CRM visibility",
  queries: ["best crm for startups", "crm with a free plan"],
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  competitors: [{ name: "Salesforce", domains: ["salesforce.com"] }, { name: "Pipedrive" }],
  iterations: 3,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

/** Runs the tracker now and gives the run back once it has ended (completed, partial, failed or skipped). */
export async function runToEnd(api: Pick<ApiClient, "runTracker" | "getTrackerRun">, trackerId: string): Promise<TrackerRun> {
  const { run } = await api.runTracker(trackerId);
  return waitFor(
    async () => {
      const read = await api.getTrackerRun(trackerId, run.id);
      return read.status !== "queued" && read.status !== "running" && read;
    },
    { what: "the run to end" },
  );
}

/** The runs a series needs before it can be told to have moved (ADR 050): its first baseline. */
export const BASELINE_RUNS = DEFAULT_ALERT_RULES.minBaseline;

/** Runs the tracker `count` times, one after another, each to its end: a steady baseline. */
export async function runTimes(api: Pick<ApiClient, "runTracker" | "getTrackerRun">, trackerId: string, count: number): Promise<TrackerRun[]> {
  const runs: TrackerRun[] = [];
  for (let i = 0; i < count; i++) runs.push(await runToEnd(api, trackerId));
  return runs;
}
