import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TopListChanges, TrackerChanges } from "#src/contract/changes.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { nameKey } from "#src/core/names.ts";
import { hostOf } from "#src/core/urls.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { alertingTracker, BASELINE_RUNS, runTimes, runToEnd } from "#tests/support/trackers.ts";

/*
 * What changed between a tracker's latest run and the runs before it, beyond the
 * runs' noise. A provider that stops searching the web cites nothing in the latest run: its most
 * cited domains leave, with their counts, and every count agrees with the runs' saved searches as
 * GET /api/search/{id} gives them; the providers that kept searching list no domain leaving.
 */

// A tracker asks every provider connected: here all of the catalogue's, simulated.
const providers = providerIds;
const kinds = ["products", "companies", "domains"] as const;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ seed: 26, latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: what changed", (getDb) => {
  test("not ready before two runs; then OpenAI's cited domains leave the top 10 once it stops searching, beyond the runs' noise, with counts the saved searches agree with", async () => {
    simulator.clearFaults();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", alertingTracker)).json as Tracker;
      const notReady = { ready: false, window: 1, providers: {} };
      expect(await agent.api.getTrackerChanges(tracker.id)).toEqual(notReady);
      const [first] = await runTimes(agent.api, tracker.id, 1);
      expect(first!.status).toBe("completed");
      expect(await agent.api.getTrackerChanges(tracker.id)).toEqual(notReady);
      // A baseline: the latest run is compared with up to 7 before it.
      const baseline = [first!, ...(await runTimes(agent.api, tracker.id, BASELINE_RUNS - 1))];

      // OpenAI answers without searching the web from now on: no sources.
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      const latest = await runToEnd(agent.api, tracker.id);
      expect(latest.status).toBe("completed");
      const changes = await agent.api.getTrackerChanges(tracker.id);
      expect(changes.ready).toBe(true);
      expect(Object.keys(changes.providers).toSorted()).toEqual([...providers].toSorted());

      // The recomputation: each window's saved searches, counted per provider from their frequencies.
      const recount = await recountFromSearches(agent.api.getSearch, baseline, [latest]);
      for (const provider of providers) {
        const found = changes.providers[provider]!;
        expect(found.windows).toEqual({ before: { runIds: baseline.map((run) => run.id), n: 20 * BASELINE_RUNS }, after: { runIds: [latest.id], n: 20 } });
        for (const kind of kinds) {
          const { before, after } = recount[provider][kind];
          for (const item of [...found[kind].entered, ...found[kind].left]) {
            expect({ kind, name: item.name, before: item.before, after: item.after }).toEqual({
              kind,
              name: item.name,
              before: { count: before.get(nameKey(item.name)) ?? 0, n: 20 * BASELINE_RUNS },
              after: { count: after.get(nameKey(item.name)) ?? 0, n: 20 },
            });
          }
          // What is listed crossed the top 10's edge; what crossed it and is not listed is counted as within the noise.
          const entered = changed(after, before);
          const left = changed(before, after);
          expect(namesOf(found[kind].entered).every((name) => entered.includes(name))).toBe(true);
          expect(namesOf(found[kind].left).every((name) => left.includes(name))).toBe(true);
          expect(found[kind].entered.length + found[kind].left.length + found[kind].withinNoise).toBe(entered.length + left.length);
        }
      }
      // OpenAI cited sites in every run before and none in the latest: its most cited ones left beyond the noise, none entered.
      const openai = changes.providers.openai!.domains;
      expect(openai.entered).toEqual([]);
      expect(openai.left.map((item) => item.name)).toContain("hubspot.com");
      expect(openai.left.map((item) => item.after.count)).toEqual(openai.left.map(() => 0));
      expect(openai.left.map((item) => item.before.count)).toEqual(openai.left.map((item) => item.before.count).toSorted((a, b) => b - a));
      expect(openai.left.length + openai.withinNoise).toBeGreaterThanOrEqual(10);
      // The providers that kept searching: their domains did not leave beyond the noise.
      for (const provider of providers.filter((id) => id !== "openai")) expect(changes.providers[provider]!.domains.left).toEqual([]);

      // Narrowed to one provider.
      const one: TrackerChanges = await agent.api.getTrackerChanges(tracker.id, { provider: "openai" });
      expect(one).toEqual({ ready: true, window: 1, providers: { openai: changes.providers.openai! } });
    } finally {
      simulator.clearFaults();
      await queue.stop();
    }
  }, 120_000);

  test("a bad provider is a 400 naming it; another user's tracker is 404", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", alertingTracker)).json as Tracker;
      const bad = await agent.request("GET", `/api/trackers/${tracker.id}/changes?provider=bing`);
      expect(bad.status).toBe(400);
      expect((bad.json as { message: string }).message).toContain("provider");
      const { agent: other } = await createProAgent(app, getDb());
      expect((await other.request("GET", `/api/trackers/${tracker.id}/changes`)).status).toBe(404);
    } finally {
      await queue.stop();
    }
  });
});

type Counts = Map<string, number>;

/**
 * Per provider and kind, in how many answers of each run each item came back: the saved searches'
 * own frequencies summed over the run's queries (an answer belongs to one search). Domains from the
 * sources' frequencies by host: the simulator cites a site once per answer.
 */
async function recountFromSearches(
  getSearch: (
    id: string,
  ) => Promise<{ stats: Partial<Record<ProviderId, { productFrequencies: Frequency[]; companyFrequencies: Frequency[]; sourceFrequencies: Frequency[] }>> }>,
  ...windows: TrackerRun[][]
) {
  const searches = await Promise.all(windows.map((runs) => Promise.all(runs.flatMap((run) => run.queries.map((query) => getSearch(query.searchId!))))));
  const sum = (
    provider: ProviderId,
    index: number,
    pick: (stats: { productFrequencies: Frequency[]; companyFrequencies: Frequency[]; sourceFrequencies: Frequency[] }) => Frequency[],
    key: (name: string) => string | null,
  ) => {
    const counts: Counts = new Map();
    for (const search of searches[index]!)
      for (const item of pick(search.stats[provider] ?? { productFrequencies: [], companyFrequencies: [], sourceFrequencies: [] })) {
        const name = key(item.name);
        if (name) counts.set(name, (counts.get(name) ?? 0) + item.count);
      }
    return counts;
  };
  const byKind = (provider: ProviderId, index: number) => ({
    products: sum(provider, index, (stats) => stats.productFrequencies, nameKey),
    companies: sum(provider, index, (stats) => stats.companyFrequencies, nameKey),
    domains: sum(provider, index, (stats) => stats.sourceFrequencies, hostOf),
  });
  return Object.fromEntries(
    providers.map((provider) => {
      const [before, after] = [byKind(provider, 0), byKind(provider, 1)];
      return [provider, Object.fromEntries(kinds.map((kind) => [kind, { before: before[kind], after: after[kind] }]))];
    }),
  ) as Record<ProviderId, Record<(typeof kinds)[number], { before: Counts; after: Counts }>>;
}

type Frequency = { name: string; count: number };

/** The top 10 of a window, ties at the 10th place in. */
function top(counts: Counts): Set<string> {
  const sorted = [...counts.values()].toSorted((a, b) => b - a);
  const edge = sorted[9] ?? 0;
  return new Set([...counts].filter(([, count]) => count >= edge && count > 0).map(([key]) => key));
}

/** In `from`'s top 10 and not in `other`'s, by name key, sorted. */
function changed(from: Counts, other: Counts): string[] {
  const theirs = top(other);
  return [...top(from)].filter((key) => !theirs.has(key)).toSorted();
}

function namesOf(items: TopListChanges["entered"]): string[] {
  return items.map((item) => nameKey(item.name)).toSorted();
}
