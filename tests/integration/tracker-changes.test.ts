import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TopListChanges, TrackerChanges } from "#src/contract/changes.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { nameKey } from "#src/core/names.ts";
import { hostOf } from "#src/core/urls.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { alertingTracker, runToEnd } from "#tests/support/trackers.ts";

/*
 * Issue 26: what changed between a tracker's last two windows of runs. A provider that stops
 * searching the web cites nothing in the second run: every domain of its first top 10 leaves, with
 * its counts; and every count agrees with the runs' saved searches as GET /api/search/{id} gives them.
 */

const providers = ["openai", "anthropic", "gemini"] as const;
const kinds = ["products", "companies", "domains"] as const;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ seed: 26, latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: what changed", (getDb) => {
  test("not ready before two runs; then OpenAI's cited domains leave the top 10 once it stops searching, with counts the saved searches agree with", async () => {
    simulator.clearFaults();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", alertingTracker)).json as Tracker;
      const run = () => runToEnd(agent.api, tracker.id);
      const notReady = { ready: false, window: 1, providers: {} };
      expect(await agent.api.getTrackerChanges(tracker.id)).toEqual(notReady);
      const first = await run();
      expect(first.status).toBe("completed");
      expect(await agent.api.getTrackerChanges(tracker.id)).toEqual(notReady);

      // OpenAI answers without searching the web from now on: no sources.
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      const second = await run();
      expect(second.status).toBe("completed");
      const changes = await agent.api.getTrackerChanges(tracker.id);
      expect(changes.ready).toBe(true);
      expect(Object.keys(changes.providers).toSorted()).toEqual([...providers].toSorted());

      // The recomputation: each window's saved searches, counted per provider from their frequencies.
      const recount = await recountFromSearches(agent.api.getSearch, first, second);
      for (const provider of providers) {
        const found = changes.providers[provider]!;
        expect(found.windows).toEqual({ before: { runIds: [first.id], n: 20 }, after: { runIds: [second.id], n: 20 } });
        for (const kind of kinds) {
          const { before, after } = recount[provider][kind];
          for (const item of [...found[kind].entered, ...found[kind].left]) {
            expect({ kind, name: item.name, before: item.before, after: item.after }).toEqual({
              kind,
              name: item.name,
              before: { count: before.get(nameKey(item.name)) ?? 0, n: 20 },
              after: { count: after.get(nameKey(item.name)) ?? 0, n: 20 },
            });
          }
          expect(namesOf(found[kind].entered)).toEqual(changed(after, before));
          expect(namesOf(found[kind].left)).toEqual(changed(before, after));
        }
      }
      // OpenAI cited sites in the first run and none in the second: its whole top 10 of domains left, none entered.
      const openai = changes.providers.openai!.domains;
      expect(openai.entered).toEqual([]);
      expect(openai.left.length).toBeGreaterThanOrEqual(10);
      expect(openai.left.map((item) => item.after.count)).toEqual(openai.left.map(() => 0));
      expect(openai.left.every((item) => item.before.count > 0)).toBe(true);
      expect(openai.left.map((item) => item.before.count)).toEqual(openai.left.map((item) => item.before.count).toSorted((a, b) => b - a));
      expect(openai.left.map((item) => item.name)).toContain("hubspot.com");

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
  ...runs: TrackerRun[]
) {
  const searches = await Promise.all(runs.map((run) => Promise.all(run.queries.map((query) => getSearch(query.searchId!)))));
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
