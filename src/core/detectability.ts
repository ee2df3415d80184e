import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import {
  decideAlerts,
  DEFAULT_ALERT_RULES,
  QUESTION_SHARE,
  seriesId,
  type AlertDecision,
  type AlertRules,
  type LastAlert,
  type RunCounts,
  type RunRow,
} from "./alerts.ts";

/*
 * Trackers simulated under run-to-run variance (ADR 050): the answers of a run share a
 * provider's day (its model, its search index: one logit-normal effect per provider × subject ×
 * metric and run) and each question's run (one per question besides), or are beta-binomial within
 * a question's run. The alert harness (tests/unit/alert-harness.test.ts) measures the rule under
 * each model; the product uses the same code to say, before a tracker is saved, what change it
 * could see.
 */

/** How a tracker's answers vary from run to run beyond their coin flips. */
export type VarianceModel = {
  name: string;
  /** Logit-normal effect per provider × question × subject × metric and run (sd on the logit scale). */
  queryRunSd?: number;
  /** Logit-normal effect per provider × subject × metric and run, shared by every question (sd on the logit scale). */
  providerDaySd?: number;
  /** Beta-binomial within a question's run: the intra-run correlation of its answers. */
  rho?: number;
  /** One provider varying its own way: its model replaces this one for it (providers are not alike). */
  unlike?: { provider: ProviderId; model: VarianceModel };
};

/** Every model the harness measures: the review's (../shared alerts-review) and the issue's. */
export const VARIANCE_MODELS: readonly VarianceModel[] = [
  { name: "independent (binomial)" },
  { name: "question-run sd 0.25", queryRunSd: 0.25 },
  { name: "question-run sd 0.5", queryRunSd: 0.5 },
  { name: "question-run sd 1.0", queryRunSd: 1 },
  { name: "provider-day sd 0.25", providerDaySd: 0.25 },
  { name: "provider-day sd 0.5", providerDaySd: 0.5 },
  { name: "mixed (question-run 0.5, provider-day 0.25)", queryRunSd: 0.5, providerDaySd: 0.25 },
  { name: "beta-binomial ρ 0.05", rho: 0.05 },
  { name: "beta-binomial ρ 0.1", rho: 0.1 },
  { name: "beta-binomial ρ 0.2", rho: 0.2 },
  { name: "beta-binomial ρ 0.3", rho: 0.3 },
  { name: "one provider unlike the others (provider-day sd 0.5 on one, none on two)", unlike: { provider: "openai", model: { name: "", providerDaySd: 0.5 } } },
  {
    name: "one provider unlike the others (provider-day sd 0.25 on one, none on two)",
    unlike: { provider: "openai", model: { name: "", providerDaySd: 0.25 } },
  },
];

/** The variance the product assumes when it says what a tracker can see: the mixed model, near the middle of those measured. */
export const REALISTIC_VARIANCE: VarianceModel = VARIANCE_MODELS[6]!;

export type SimulatedTracker = {
  providers: readonly ProviderId[];
  /** The brand first; `cited`: it has own domains, so its citation rate is tested too. */
  subjects: ReadonlyArray<{ name: string; cited: boolean }>;
  queries: number;
  answers: number;
};

/** True rates per provider × question × subject. */
export type Rates = Map<string, { mention: number; citation: number }>;

export const rateKey = (provider: string, query: number, subject: string) => `${provider}/${query}/${subject}`;
export const queryName = (query: number) => `question ${query + 1}`;

/** mulberry32: a small seeded generator, so every figure is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A tracker's true rates: mention uniform in 10–90%, citation in 5–50% (for subjects with domains). */
export function trueRates(tracker: SimulatedTracker, next: () => number): Rates {
  const rates: Rates = new Map();
  for (const provider of tracker.providers)
    for (let query = 0; query < tracker.queries; query++)
      for (const subject of tracker.subjects)
        rates.set(rateKey(provider, query, subject.name), { mention: 0.1 + 0.8 * next(), citation: subject.cited ? 0.05 + 0.45 * next() : 0 });
  return rates;
}

/** One run's counts drawn under the model, with the rows over all questions as the rollups write them. */
export function drawRun(runId: string, tracker: SimulatedTracker, rates: Rates, outer: VarianceModel, next: () => number, version = "v1"): RunCounts {
  const rows: RunRow[] = [];
  const normal = gaussian(next);
  for (const provider of tracker.providers)
    for (const subject of tracker.subjects) {
      const model = outer.unlike?.provider === provider ? outer.unlike.model : outer;
      const day = { mention: (model.providerDaySd ?? 0) * normal(), citation: (model.providerDaySd ?? 0) * normal() };
      const all = { provider, query: "", subject: subject.name, answers: 0, mentions: 0, cited: 0, modelVersion: version };
      for (let query = 0; query < tracker.queries; query++) {
        const rate = rates.get(rateKey(provider, query, subject.name))!;
        const draw = (p: number, shared: number) => binomial(tracker.answers, runRate(p, shared + (model.queryRunSd ?? 0) * normal(), model, next), next);
        const row = {
          provider,
          query: queryName(query),
          subject: subject.name,
          answers: tracker.answers,
          mentions: draw(rate.mention, day.mention),
          cited: subject.cited ? draw(rate.citation, day.citation) : 0,
          modelVersion: version,
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

/**
 * The tracker's long-run rate for a question whose rate is `p` before the run's effects: what an
 * interval of the trend should cover. Beta-binomial effects keep the mean; logit-normal ones move
 * it (Gauss–Hermite quadrature).
 */
export function longRunRate(p: number, model: VarianceModel): number {
  const sd = Math.hypot(model.queryRunSd ?? 0, model.providerDaySd ?? 0);
  if (sd === 0 || p <= 0 || p >= 1) return p;
  const mu = Math.log(p / (1 - p));
  let sum = 0;
  for (const [x, w] of HERMITE) sum += (w / Math.sqrt(Math.PI)) * logistic(mu + Math.SQRT2 * sd * x);
  return sum;
}

/** Runs a tracker for `runs` runs, each decided as the server decides it (with its series' last alerts), and returns each run's decisions. */
export function simulateDecisions(
  runs: number,
  draw: (index: number) => RunCounts,
  options: { cited: ReadonlySet<string>; rules?: AlertRules },
): AlertDecision[][] {
  const rules = options.rules ?? DEFAULT_ALERT_RULES;
  const keep = rules.maxBaseline + rules.window + 1;
  const history: RunCounts[] = [];
  const last = new Map<string, LastAlert>();
  const decided: AlertDecision[][] = [];
  for (let i = 0; i < runs; i++) {
    history.push(draw(i));
    // The server reads the segment's latest runs, as many as a baseline and its windows keep; a series' reset older than those is the oldest kept.
    const recent = history.slice(-Math.max(keep, 1));
    const decisions = decideAlerts(recent, { last, cited: options.cited, rules });
    for (const decision of decisions)
      if (decision.kind !== "model-changed") last.set(seriesId(decision), { kind: decision.kind, since: decision.afterRuns[0]! });
    decided.push(decisions);
  }
  return decided;
}

/** What a tracker can see, before it is saved: the fall of the brand's mention rate it tells within `withinRuns` runs in `power` of cases. */
export type Detectability = { from: number; to: number | null; power: number; withinRuns: number; baselineRuns: number; trials: number };

/**
 * The smallest fall of the brand's mention rate on one provider, from `from` (every question), that
 * this tracker's rule tells within 2 runs in at least 80% of simulated trackers under the realistic
 * variance, after a baseline of 7 steady runs; `to` null when not even a fall to 5% is. The rule is
 * decideAlerts itself, on the brand and one competitor (both with domains) of every provider asked;
 * the bar a lone discovery must pass is the tracker's own (q over all its series: each subject's
 * mention and citation, per question too where its answers suffice), so a larger family is priced in.
 */
export function detectability(shape: TrackerShape, options: DetectabilityOptions = {}): Detectability {
  const steps = detectabilitySteps(shape, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** A tracker's shape, as its form knows it before it is saved. */
export type TrackerShape = { questions: number; iterations: number; providers: number; competitors: number };
export type DetectabilityOptions = { from?: number; trials?: number; seed?: number; model?: VarianceModel; rules?: AlertRules };

/** detectability(), a simulated tracker at a time: the server lets other requests through between them. */
export function* detectabilitySteps(shape: TrackerShape, options: DetectabilityOptions = {}): Generator<void, Detectability> {
  const from = options.from ?? 0.5;
  const trials = options.trials ?? 100;
  const model = options.model ?? REALISTIC_VARIANCE;
  const rules = options.rules ?? DEFAULT_ALERT_RULES;
  const providers = providerIds.slice(0, Math.max(1, Math.min(providerIds.length, shape.providers)));
  const tracker: SimulatedTracker = {
    providers,
    subjects: [
      { name: "Brand", cited: true },
      { name: "Rival", cited: true },
    ],
    queries: shape.questions,
    answers: shape.iterations,
  };
  const cited = new Set(["brand", "rival"]);
  // The tracker's family of tests over all questions, and the simulated one's: the bar is q / family for a lone discovery
  // (a share of q when its questions are also tested one by one, as decideAlerts splits it).
  const perQuestion = shape.questions > 1 && shape.iterations * (rules.window + 1) >= rules.minQueryAnswers;
  const family = providers.length * (1 + shape.competitors) * 2;
  const simulated = providers.length * 2 * 2;
  const share = perQuestion ? 1 - QUESTION_SHARE : 1;
  const scaled: AlertRules = { ...rules, q: (rules.q * share * simulated) / family, minQueryAnswers: Number.POSITIVE_INFINITY };
  const baselineRuns = 7;
  function* powerOf(to: number): Generator<void, number> {
    const next = seededRandom(options.seed ?? 33);
    let told = 0;
    for (let trial = 0; trial < trials; trial++) {
      yield;
      const rates = trueRates(tracker, next);
      const fallen: Rates = new Map(rates);
      for (let query = 0; query < tracker.queries; query++) {
        const key = rateKey(providers[0]!, query, "Brand");
        rates.set(key, { ...rates.get(key)!, mention: from });
        fallen.set(key, { ...rates.get(key)!, mention: to });
      }
      const runs = Array.from({ length: baselineRuns + 2 }, (_, i) => drawRun(`r${i}`, tracker, i < baselineRuns ? rates : fallen, model, next));
      const fell = (upTo: number) =>
        decideAlerts(runs.slice(0, upTo), { last: new Map(), cited, rules: scaled }).some(
          (d) => d.kind === "fell" && d.metric === "mention" && d.provider === providers[0] && d.subject === "Brand",
        );
      if (fell(baselineRuns + 1) || fell(baselineRuns + 2)) told++;
    }
    return told / trials;
  }
  // Falls 5 points apart, from the smallest: the power grows with the fall, so a bisection finds the smallest seen in 80%.
  const levels = Array.from({ length: Math.round(from * 20) - 1 }, (_, i) => Math.round((from - 0.05 * (i + 1)) * 100) / 100);
  let low = 0;
  let high = levels.length - 1;
  let found: { to: number; power: number } | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const power = yield* powerOf(levels[middle]!);
    if (power >= 0.8) {
      found = { to: levels[middle]!, power };
      high = middle - 1;
    } else low = middle + 1;
  }
  return {
    from: from * 100,
    to: found ? Math.round(found.to * 100) : null,
    power: found ? Math.round(found.power * 100) / 100 : 0,
    withinRuns: 2,
    baselineRuns,
    trials,
  };
}

/**
 * What a tracker can see, in words: "With 10 questions × 10 answers on 3 providers, a fall of your
 * brand from 50% to 15% of answers on one provider would be told within 2 runs in 82% of cases, …".
 */
export function detectabilitySentence(shape: TrackerShape, found: Detectability): string {
  const asked = `${shape.questions} ${shape.questions === 1 ? "question" : "questions"} × ${shape.iterations} ${shape.iterations === 1 ? "answer" : "answers"} on ${shape.providers} ${shape.providers === 1 ? "provider" : "providers"}`;
  const after = `after ${found.baselineRuns} steady runs, with answers varying from run to run as real assistants' do`;
  return found.to === null
    ? `With ${asked}, not even a fall of your brand from ${found.from}% to 5% of answers on one provider would be told within ${found.withinRuns} runs in 80% of cases (${after}): more questions would let it see more.`
    : `With ${asked}, a fall of your brand from ${found.from}% to ${found.to}% of answers on one provider would be told within ${found.withinRuns} runs in ${Math.round(found.power * 100)}% of cases (${after}).`;
}

// ---------------------------------------------------------------------------------------------

function runRate(p: number, effect: number, model: VarianceModel, next: () => number): number {
  if (model.rho) {
    const scale = 1 / model.rho - 1;
    return betaSample(p * scale, (1 - p) * scale, next);
  }
  if (effect === 0 || p <= 0 || p >= 1) return p;
  return logistic(Math.log(p / (1 - p)) + effect);
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Standard normal draws (Box–Muller, the spare kept). */
function gaussian(next: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const r = Math.sqrt(-2 * Math.log(1 - next()));
    const theta = 2 * Math.PI * next();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/** k of n answers at rate p: counted one by one for small n, by the normal approximation (rounded, clamped) for large n·p(1−p). */
export function binomial(n: number, p: number, next: () => number): number {
  if (p <= 0) return 0;
  if (p >= 1) return n;
  if (n * p * (1 - p) > 25) {
    const normal = gaussian(next);
    return Math.min(n, Math.max(0, Math.round(n * p + Math.sqrt(n * p * (1 - p)) * normal())));
  }
  let k = 0;
  for (let i = 0; i < n; i++) if (next() < p) k++;
  return k;
}

/** Beta(a, b) as X / (X + Y) of two gamma draws (Marsaglia–Tsang). */
function betaSample(a: number, b: number, next: () => number): number {
  const x = gammaSample(a, next);
  const y = gammaSample(b, next);
  return x + y > 0 ? x / (x + y) : a / (a + b);
}

function gammaSample(shape: number, next: () => number): number {
  if (shape < 1) return gammaSample(shape + 1, next) * Math.pow(1 - next(), 1 / shape);
  const normal = gaussian(next);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Gauss–Hermite nodes and weights (20 points). */
const HERMITE: ReadonlyArray<[number, number]> = (() => {
  const nodes = [
    [0.2453407083009, 0.4622436696006],
    [0.7374737285454, 0.2866755053628],
    [1.2340762153953, 0.10901720602],
    [1.7385377121166, 0.0248105208875],
    [2.2549740020893, 0.0032437733422],
    [2.7888060584281, 0.000228338636],
    [3.3478545673832, 0.0000078025564],
    [3.9447640401156, 0.0000001086069],
    [4.6036824495507, 0.0000000004399],
    [5.3874808900112, 0.0000000000002],
  ] as const;
  return nodes.flatMap(([x, w]) => [
    [x, w],
    [-x, w],
  ]) as Array<[number, number]>;
})();
