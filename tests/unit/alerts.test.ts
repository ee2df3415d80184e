import { describe, expect, test } from "bun:test";
import type { ProviderId } from "#src/contract/providers.ts";
import {
  benjaminiHochberg,
  decideAlerts,
  DEFAULT_ALERT_RULES,
  seriesId,
  type AlertDecision,
  type LastAlert,
  type RunCounts,
  type RunRow,
} from "#src/core/alerts.ts";

/*
 * Issue 26 (ADR 045): the alert rule, proved on a fixed seed. Stable trackers (the same true rates
 * every run: an A/A test) must raise a false alarm in at most 5% of runs; a brand whose mention rate
 * falls from 60% to 20% at 10 answers per query and run must be told within 2 runs at least 90% of
 * the time. The figures are printed; the README publishes them.
 */

const PROVIDERS: ProviderId[] = ["openai", "anthropic", "gemini"];
const SUBJECTS = ["Acme", "Globex", "Initech"];
/** Subjects with own domains: their citation rate is tested too. */
const CITED = new Set(["acme", "globex"]);
const QUERIES = Array.from({ length: 10 }, (_, i) => `query ${i + 1}`);
const ANSWERS = 10;

/** mulberry32: a small seeded generator, so the figures are the same on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rates = Map<string, { mention: number; citation: number }>;
const rateKey = (provider: string, query: string, subject: string) => `${provider}/${query}/${subject}`;

/** A tracker's true rates: each provider × query × subject its own. */
function trueRates(next: () => number): Rates {
  const rates: Rates = new Map();
  for (const provider of PROVIDERS)
    for (const query of QUERIES)
      for (const subject of SUBJECTS)
        rates.set(rateKey(provider, query, subject), { mention: 0.1 + 0.8 * next(), citation: CITED.has(subject.toLowerCase()) ? 0.05 + 0.45 * next() : 0 });
  return rates;
}

function binomial(n: number, p: number, next: () => number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (next() < p) k++;
  return k;
}

/** One run's counts drawn from the rates, with the rows over all queries as the rollups write them. */
function drawRun(runId: string, rates: Rates, next: () => number, version = (_: ProviderId) => "v1"): RunCounts {
  const rows: RunRow[] = [];
  for (const provider of PROVIDERS)
    for (const subject of SUBJECTS) {
      const all = { provider, query: "", subject, answers: 0, mentions: 0, cited: 0, modelVersion: version(provider) };
      for (const query of QUERIES) {
        const { mention, citation } = rates.get(rateKey(provider, query, subject))!;
        const row = {
          provider,
          query,
          subject,
          answers: ANSWERS,
          mentions: binomial(ANSWERS, mention, next),
          cited: binomial(ANSWERS, citation, next),
          modelVersion: version(provider),
        };
        rows.push(row);
        all.answers += row.answers;
        all.mentions += row.mentions;
        all.cited += row.cited;
      }
      rows.push(all);
    }
  return { runId, rows };
}

/** Runs a tracker for `runs` runs, each decided as the server does (with the series' last alerts), and returns each run's decisions. */
function simulate(runs: number, draw: (index: number) => RunCounts): AlertDecision[][] {
  const history: RunCounts[] = [];
  const last = new Map<string, LastAlert>();
  const decided: AlertDecision[][] = [];
  for (let i = 0; i < runs; i++) {
    history.push(draw(i));
    const decisions = decideAlerts(history.slice(-2 * DEFAULT_ALERT_RULES.window), { last, cited: CITED });
    for (const decision of decisions) if (decision.kind !== "model-changed") last.set(seriesId(decision), { kind: decision.kind, after: decision.after });
    decided.push(decisions);
  }
  return decided;
}

const isMove = (decision: AlertDecision) => decision.kind === "rose" || decision.kind === "fell";

describe("the alert rule on a fixed seed", () => {
  test("A/A: stable 10-query trackers raise a false alarm in at most 5% of runs", () => {
    const next = random(20261126);
    let runs = 0;
    let alarmed = 0;
    let alerts = 0;
    for (let tracker = 0; tracker < 20; tracker++) {
      const rates = trueRates(next);
      const decided = simulate(51, (i) => drawRun(`t${tracker}r${i}`, rates, next)).slice(1);
      runs += decided.length;
      alarmed += decided.filter((decisions) => decisions.some(isMove)).length;
      alerts += decided.flat().filter(isMove).length;
    }
    const rate = alarmed / runs;
    console.log(
      `A/A: ${runs} runs of stable 10-query trackers (3 providers × 3 subjects, ${ANSWERS} answers per query): ${alarmed} runs with a false alarm (${(rate * 100).toFixed(1)}%), ${alerts} false alerts`,
    );
    expect(rate).toBeLessThanOrEqual(0.05);
  });

  test("a brand's mention rate falling from 60% to 20% on one provider, at 10 answers per query and run, is told within 2 runs at least 90% of the time", () => {
    const next = random(7);
    const trials = 200;
    let within1 = 0;
    let within2 = 0;
    let single2 = 0;
    for (let trial = 0; trial < trials; trial++) {
      const rates = trueRates(next);
      for (const query of QUERIES) rates.set(rateKey("openai", query, "Acme"), { ...rates.get(rateKey("openai", query, "Acme"))!, mention: 0.6 });
      const dropped: Rates = new Map(rates);
      for (const query of QUERIES) dropped.set(rateKey("openai", query, "Acme"), { ...rates.get(rateKey("openai", query, "Acme"))!, mention: 0.2 });
      const at = 5;
      const told = (decisions: AlertDecision[]) =>
        decisions.some((d) => d.kind === "fell" && d.metric === "mention" && d.provider === "openai" && d.subject === "Acme");
      const decided = simulate(at + 2, (i) => drawRun(`r${i}`, i < at ? rates : dropped, next));
      if (told(decided[at]!)) within1++;
      if (told(decided[at]!) || told(decided[at + 1]!)) within2++;

      // The same drop on one query alone: 10 answers a run against the whole run's family of tests.
      const one: Rates = new Map(rates);
      one.set(rateKey("openai", QUERIES[0]!, "Acme"), { ...rates.get(rateKey("openai", QUERIES[0]!, "Acme"))!, mention: 0.2 });
      const single = simulate(at + 2, (i) => drawRun(`s${i}`, i < at ? rates : one, next));
      if (told(single[at]!) || told(single[at + 1]!)) single2++;
    }
    console.log(
      `drop 60% → 20% (brand, one provider, all 10 queries, ${ANSWERS} answers per query): told within 1 run in ${((within1 / trials) * 100).toFixed(1)}% of ${trials} trials, within 2 runs in ${((within2 / trials) * 100).toFixed(1)}%; ` +
        `the same drop on one query alone: within 2 runs in ${((single2 / trials) * 100).toFixed(1)}%`,
    );
    expect(within2 / trials).toBeGreaterThanOrEqual(0.9);
  });
});

describe("the rule's parts", () => {
  const run = (runId: string, mentions: number, version = "v1"): RunCounts => ({
    runId,
    rows: [{ provider: "openai", query: "", subject: "Acme", answers: 50, mentions, cited: 0, modelVersion: version }],
  });
  const decide = (runs: RunCounts[], last = new Map<string, LastAlert>()) => decideAlerts(runs, { last, cited: new Set() });

  test("a clear fall is told with both sides, p and q", () => {
    const [alert] = decide([run("a", 30), run("b", 10)]);
    expect(alert).toMatchObject({
      kind: "fell",
      metric: "mention",
      provider: "openai",
      subject: "Acme",
      query: "",
      before: { k: 30, n: 50, rate: 60 },
      after: { k: 10, n: 50, rate: 20 },
    });
    expect(alert && "p" in alert && alert.p).toBeLessThan(0.001);
  });

  test("a model version that changed between the windows is a notice, never a rise or a fall", () => {
    expect(decide([run("a", 30, "gpt-6"), run("b", 10, "gpt-7")])).toEqual([{ kind: "model-changed", provider: "openai", before: "gpt-6", after: "gpt-7" }]);
  });

  test("one alert per change: a rate that stays low is not told again; a recovery is", () => {
    const last = new Map<string, LastAlert>([
      [seriesId({ metric: "mention", provider: "openai", subject: "Acme", query: "" }), { kind: "fell", after: { k: 10, n: 50 } }],
    ]);
    expect(decide([run("b", 10), run("c", 4)], last)).toEqual([]);
    expect(decide([run("c", 11), run("d", 31)], last).map((d) => d.kind)).toEqual(["rose"]);
  });

  test("too few answers in a window: no test", () => {
    const small = (runId: string, mentions: number): RunCounts => ({
      runId,
      rows: [{ provider: "openai", query: "", subject: "Acme", answers: 9, mentions, cited: 0, modelVersion: "v1" }],
    });
    expect(decide([small("a", 9), small("b", 0)])).toEqual([]);
  });

  test("Benjamini–Hochberg q-values: as R's p.adjust(method = 'BH')", () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
    expect(benjaminiHochberg([0.01, 0.04, 0.03, 0.005]).map((q) => Number(q.toFixed(4)))).toEqual([0.02, 0.04, 0.04, 0.02]);
  });
});
