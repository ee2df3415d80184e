import type { ProviderId } from "#src/contract/providers.ts";
import {
  drawRun,
  longRunRate,
  rateKey,
  seededRandom,
  simulateDecisions,
  trueRates,
  type Rates,
  type SimulatedTracker,
  type VarianceModel,
} from "#src/core/detectability.ts";
import type { AlertDecision, RunCounts } from "#src/core/alerts.ts";
import { metricOf, trendDispersions, type SubjectCounts } from "#src/core/trend.ts";

/*
 * The alert rule and the trend's bands measured under run-to-run variance (ADR 050), one
 * variance model at a time, with the product's own functions: decideAlerts as the server calls it
 * after each run (simulateDecisions), and the trend's intervals as the trend reads them
 * (trendDispersions, metricOf). Seeded: every figure is the same on every machine.
 */

/** The tracker of the review and of ADR 045's figures: 3 providers, a brand and two competitors (two with own domains), 10 questions, 10 answers each. */
export const HARNESS_TRACKER: SimulatedTracker = {
  providers: ["openai", "anthropic", "gemini"],
  subjects: [
    { name: "Acme", cited: true },
    { name: "Globex", cited: true },
    { name: "Initech", cited: false },
  ],
  queries: 10,
  answers: 10,
};
const CITED = new Set(["acme", "globex"]);

/** How many of each: enough to decide every goal (Monte Carlo errors in the ADR), small enough for CI. */
export const HARNESS_SIZE = { trackers: 40, runs: 60, trials: 80, coverageTrackers: 40 } as const;

export type HarnessRow = {
  model: string;
  /** A/A: share of runs with a false rise or fall, of months (30 daily runs) with one, and false alerts a month. */
  falseRuns: number;
  falseMonths: number;
  falseAlertsPerMonth: number;
  /** The brand's mention rate on one provider falling 60% → 20% on every question: told at the first run, within two. */
  fall1: number;
  fall2: number;
  /** 50% → 35%: within two runs. */
  smallFall2: number;
  /** Of the 60 → 20 falls told, the share told once (no second fall of that series in the 10 runs at 20%). */
  toldOnce: number;
  /** After the fall, a recovery to 60% told within 4 runs of its baseline filling, and a second fall to 20% within 2 runs. */
  recovery: number;
  secondFall2: number;
  /** A slide from 60% to 20% over 20 runs, told by 2 runs after it ends. */
  slide: number;
  /** The trend's 95% bands: the share of run points covering the tracker's long-run rate, after 5 runs and after 30. */
  coverage5: number;
  coverage30: number;
};

const isMove = (decision: AlertDecision) => decision.kind === "rose" || decision.kind === "fell";
const told = (decisions: AlertDecision[] | undefined, kind: "rose" | "fell") =>
  (decisions ?? []).some((d) => d.kind === kind && d.metric === "mention" && d.provider === "openai" && d.subject === "Acme" && d.query === "");

/** Every figure of one model. */
export function measureModel(model: VarianceModel, size = HARNESS_SIZE): HarnessRow {
  const tracker = HARNESS_TRACKER;
  const cited = CITED;
  const pct = (part: number, whole: number) => Math.round((1000 * part) / Math.max(1, whole)) / 10;

  // A/A: stable trackers, every run counted from the first.
  let next = seededRandom(20261207);
  let runs = 0;
  let alarmed = 0;
  let alerts = 0;
  let months = 0;
  let alarmedMonths = 0;
  for (let t = 0; t < size.trackers; t++) {
    const rates = trueRates(tracker, next);
    const decided = simulateDecisions(size.runs, (i) => drawRun(`t${t}r${i}`, tracker, rates, model, next), { cited });
    runs += decided.length;
    alarmed += decided.filter((d) => d.some(isMove)).length;
    alerts += decided.flat().filter(isMove).length;
    for (let m = 0; m + 30 <= decided.length; m += 30) {
      months++;
      if (decided.slice(m, m + 30).some((d) => d.some(isMove))) alarmedMonths++;
    }
  }

  // The brand's rate on OpenAI over every question, run by run; the rest stays as drawn.
  const withBrandAt = (rates: Rates, level: number): Rates => {
    const moved: Rates = new Map(rates);
    for (let q = 0; q < tracker.queries; q++) {
      const key = rateKey("openai", q, "Acme");
      moved.set(key, { ...rates.get(key)!, mention: level });
    }
    return moved;
  };
  const trial = (seed: number, levels: number[], each: (decided: AlertDecision[][]) => void) => {
    next = seededRandom(seed);
    for (let i = 0; i < size.trials; i++) {
      const rates = trueRates(tracker, next);
      const byLevel = new Map<number, Rates>();
      const at = (level: number) => byLevel.get(level) ?? (byLevel.set(level, withBrandAt(rates, level)), byLevel.get(level)!);
      each(simulateDecisions(levels.length, (r) => drawRun(`r${r}`, tracker, at(levels[r]!), model, next), { cited }));
    }
  };
  const BASE = 10;
  const steady = (level: number, count: number) => Array.from({ length: count }, () => level);

  // 60 → 20 for 10 runs, back to 60 for 10, then 20 again.
  let fall1 = 0;
  let fall2 = 0;
  let once = 0;
  let recovered = 0;
  let secondFall = 0;
  trial(7, [...steady(0.6, BASE), ...steady(0.2, 10), ...steady(0.6, 10), ...steady(0.2, 2)], (d) => {
    if (told(d[BASE], "fell")) fall1++;
    const first = told(d[BASE], "fell") || told(d[BASE + 1], "fell");
    if (first) {
      fall2++;
      if (d.slice(BASE, BASE + 10).filter((x) => told(x, "fell")).length === 1) once++;
    }
    if (d.slice(BASE + 10, BASE + 20).some((x) => told(x, "rose"))) recovered++;
    if (told(d[BASE + 20], "fell") || told(d[BASE + 21], "fell")) secondFall++;
  });

  let smallFall = 0;
  trial(8, [...steady(0.5, BASE), ...steady(0.35, 2)], (d) => {
    if (told(d[BASE], "fell") || told(d[BASE + 1], "fell")) smallFall++;
  });

  let slid = 0;
  const slide = [...steady(0.6, BASE), ...Array.from({ length: 20 }, (_, i) => 0.6 - (0.4 * (i + 1)) / 20), ...steady(0.2, 2)];
  trial(11, slide, (d) => {
    if (d.slice(BASE).some((x) => told(x, "fell"))) slid++;
  });

  return {
    model: model.name,
    falseRuns: pct(alarmed, runs),
    falseMonths: pct(alarmedMonths, months),
    falseAlertsPerMonth: Math.round((100 * alerts) / Math.max(1, months)) / 100,
    fall1: pct(fall1, size.trials),
    fall2: pct(fall2, size.trials),
    smallFall2: pct(smallFall, size.trials),
    toldOnce: pct(once, fall2),
    recovery: pct(recovered, size.trials),
    secondFall2: pct(secondFall, size.trials),
    slide: pct(slid, size.trials),
    coverage5: coverage(model, tracker, 5, size.coverageTrackers, 5),
    coverage30: coverage(model, tracker, 30, Math.ceil(size.coverageTrackers / 3), 6),
  };
}

/**
 * The share of the trend's points (mention, over all questions, every provider and subject) whose
 * 95% band covers the tracker's long-run rate, for trackers of `runs` runs, the band read as the
 * trend reads it: the dispersion from the runs shown.
 */
export function coverage(model: VarianceModel, tracker: SimulatedTracker, runs: number, trackers: number, seed: number): number {
  const next = seededRandom(seed);
  let points = 0;
  let covered = 0;
  for (let t = 0; t < trackers; t++) {
    const rates = trueRates(tracker, next);
    const drawn = Array.from({ length: runs }, (_, i) => drawRun(`c${i}`, tracker, rates, model, next));
    const series = tracker.providers.flatMap((provider) =>
      tracker.subjects.map((subject) => ({
        provider,
        subject: subject.name,
        runs: drawn.map((run) => ({ segment: 1, counts: countsOf(run, provider, subject.name) })),
      })),
    );
    const dispersions = trendDispersions("mention", series);
    for (const { provider, subject, runs: list } of series) {
      const own = model.unlike?.provider === provider ? model.unlike.model : model;
      let truth = 0;
      for (let q = 0; q < tracker.queries; q++) truth += longRunRate(rates.get(rateKey(provider, q, subject))!.mention, own) / tracker.queries;
      for (const { counts } of list) {
        const { low, high } = metricOf("mention", counts, dispersions.get(provider));
        points++;
        if (low !== null && high !== null && low <= truth * 100 && truth * 100 <= high) covered++;
      }
    }
  }
  return Math.round((1000 * covered) / points) / 10;
}

/** The coverage table of the review (questions × answers per question, by intra-run correlation), for the README. */
export function coverageByShape(models: readonly VarianceModel[]): Array<{ shape: string; cells: number[] }> {
  const shapes: Array<[number, number]> = [
    [1, 10],
    [10, 10],
    [1, 100],
    [10, 100],
  ];
  return shapes.map(([queries, answers]) => ({
    shape: `${queries} × ${answers}`,
    cells: models.map((model, i) => coverage(model, { ...HARNESS_TRACKER, queries, answers }, 30, 8, 100 + i)),
  }));
}

function countsOf(run: RunCounts, provider: ProviderId, subject: string): SubjectCounts {
  const row = run.rows.find((r) => r.provider === provider && r.subject === subject && r.query === "")!;
  return {
    subject,
    isBrand: subject === "Acme",
    answers: row.answers,
    mentions: row.mentions,
    allMentions: 0,
    cited: row.cited,
    ranked: 0,
    positionSum: 0,
    positionSquares: 0,
    coMentions: null,
    mentionSquares: null,
  };
}
