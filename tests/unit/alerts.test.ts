import { describe, expect, test } from "bun:test";
import type { ProviderId } from "#src/contract/providers.ts";
import { benjaminiHochberg, decideAlerts, seriesId, type AlertDecision, type LastAlert, type RunCounts, type RunRow } from "#src/core/alerts.ts";
import { versionSet } from "#src/core/model-identity.ts";

/*
 * ADR 050: the parts of the alert rule, each on counts made by hand. What the rule does
 * under run-to-run variance, across thousands of simulated runs, is the harness's
 * (tests/unit/alert-harness.test.ts).
 */

type Spec = { mentions: number[]; answers?: number; version?: string; provider?: ProviderId; subject?: string };

/** A run: per question its answers and mentions for one provider and subject (Acme on OpenAI unless said), with the row over all questions. */
function run(runId: string, ...specs: Spec[]): RunCounts {
  const rows: RunRow[] = [];
  for (const { mentions, answers = 10, version = "m-1", provider = "openai", subject = "Acme" } of specs) {
    const perQuestion = mentions.map((k, q) => ({ provider, query: `question ${q + 1}`, subject, answers, mentions: k, cited: 0, modelVersion: version }));
    rows.push(...perQuestion, {
      provider,
      query: "",
      subject,
      answers: answers * mentions.length,
      mentions: mentions.reduce((a, b) => a + b, 0),
      cited: 0,
      modelVersion: version,
    });
  }
  return { runId, rows };
}

const steady = (count: number, make: (i: number) => Spec[]) => Array.from({ length: count }, (_, i) => run(`r${i}`, ...make(i)));
/** Ten questions with a run's wobble: 5 or 6 mentions of 10 on each. */
const atSixty = (i: number): Spec[] => [{ mentions: Array.from({ length: 10 }, (_, q) => 6 - ((i + q) % 2)) }];
const decide = (runs: RunCounts[], last = new Map<string, LastAlert>()) => decideAlerts(runs, { last, cited: new Set() });
const moves = (decisions: AlertDecision[]) => decisions.filter((d) => d.kind === "rose" || d.kind === "fell");

describe("a change against the baseline", () => {
  test("a clear fall is told over all questions, with both sides, p, q, the dispersion it counted with and its baseline's runs", () => {
    const runs = [...steady(7, atSixty), run("after", { mentions: Array.from({ length: 10 }, () => 1) })];
    const [alert, ...rest] = moves(decide(runs));
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      kind: "fell",
      metric: "mention",
      provider: "openai",
      subject: "Acme",
      query: "",
      after: { k: 10, n: 100, rate: 10 },
      baselineRuns: ["r0", "r1", "r2", "r3", "r4", "r5", "r6"],
      afterRuns: ["after"],
    });
    if (alert?.kind !== "fell") throw new Error("no fall");
    expect(alert.before.rate).toBeCloseTo(55, 0);
    expect(alert.p).toBeLessThan(1e-4);
    expect(alert.q).toBeLessThanOrEqual(0.01);
    expect(alert.dispersion.phi).toBeGreaterThanOrEqual(1);
    // The sides' bands are for the rate, not only the answers counted: wider than Wilson's on 100 answers (4.9–17.4 %).
    expect(alert.after.high - alert.after.low).toBeGreaterThan(17.4 - 4.9);
  });

  test("no test until the series has three runs of baseline: the fall at the third run is not told, at the fourth it is", () => {
    const fallen = run("after", { mentions: Array.from({ length: 10 }, () => 0) });
    expect(moves(decide([...steady(2, atSixty), fallen]))).toEqual([]);
    expect(moves(decide([...steady(3, atSixty), fallen])).map((d) => d.kind)).toEqual(["fell"]);
  });

  test("a baseline that swung from run to run asks for more: the same fall over two runs, told against a steady baseline, is not against a wobbling one", () => {
    const fallen = [run("after", { mentions: Array.from({ length: 10 }, () => 3) }), run("again", { mentions: Array.from({ length: 10 }, () => 3) })];
    const wobbling = steady(7, (i) => [{ mentions: Array.from({ length: 10 }, () => (i % 2 === 0 ? 9 : 2)) }]);
    expect(moves(decide([...steady(7, atSixty), ...fallen])).map((d) => d.kind)).toEqual(["fell"]);
    expect(moves(decide([...wobbling, ...fallen]))).toEqual([]);
  });

  test("a moderate fall waits for a second run to confirm it; one that is unmistakable is told at the first", () => {
    const moderate = (runId: string) => run(runId, { mentions: Array.from({ length: 10 }, () => 3) });
    expect(moves(decide([...steady(7, atSixty), moderate("after")]))).toEqual([]);
    expect(moves(decide([...steady(7, atSixty), moderate("after"), moderate("again")])).map((d) => d.kind !== "model-changed" && d.afterRuns)).toEqual([
      ["after", "again"],
    ]);
    const gone = run("after", { mentions: Array.from({ length: 10 }, () => 0) });
    expect(moves(decide([...steady(7, atSixty), gone])).map((d) => d.kind !== "model-changed" && d.afterRuns)).toEqual([["after"]]);
  });

  test("questions missing from the latest run move nothing: the other questions' rates are compared with their own", () => {
    // Question 1 is always named, question 2 never; the latest run asked only question 2.
    const both = steady(7, () => [{ mentions: [10, 0] }]);
    expect(moves(decide([...both, { runId: "after", rows: run("after", { mentions: [10, 0] }).rows.filter((row) => row.query !== "question 1") }]))).toEqual(
      [],
    );
  });

  test("a question alone is tested only once its window holds 30 answers", () => {
    const questionDrop = (answers: number) => [
      ...steady(7, () => [{ answers, mentions: [Math.round(answers * 0.8), Math.round(answers * 0.5)] }]),
      run("after", { answers, mentions: [0, Math.round(answers * 0.5)] }),
    ];
    expect(moves(decide(questionDrop(10))).filter((d) => d.kind !== "model-changed" && d.query !== "")).toEqual([]);
    expect(
      moves(decide(questionDrop(40)))
        .filter((d) => d.kind !== "model-changed" && d.query !== "")
        .map((d) => d.kind !== "model-changed" && [d.kind, d.query]),
    ).toEqual([["fell", "question 1"]]);
  });
});

describe("told once", () => {
  const low = (i: number): Spec[] => [{ mentions: Array.from({ length: 10 }, (_, q) => 1 + ((i + q) % 2)) }];

  test("a rate that stays low is not told again; a recovery from the new level is; and a second fall after it", () => {
    const history = [...steady(7, atSixty), ...steady(6, low).map((r, i) => ({ ...r, runId: `low${i}` }))];
    const last = new Map<string, LastAlert>();
    const told: string[] = [];
    const step = (runs: RunCounts[]) => {
      for (const d of moves(decide(runs, last))) {
        if (d.kind === "model-changed") continue;
        told.push(`${d.kind}@${runs.at(-1)!.runId}`);
        last.set(seriesId(d), { kind: d.kind, since: d.afterRuns[0]! });
      }
    };
    for (let i = 1; i <= history.length; i++) step(history.slice(0, i));
    expect(told).toEqual(["fell@low0"]);
    const recovered = steady(2, atSixty).map((r, i) => ({ ...r, runId: `back${i}` }));
    for (const r of recovered) {
      history.push(r);
      step(history);
    }
    expect(told).toEqual(["fell@low0", "rose@back0"]);
    for (const r of steady(4, atSixty).map((r, i) => ({ ...r, runId: `steady${i}` }))) {
      history.push(r);
      step(history);
    }
    history.push(run("again", { mentions: Array.from({ length: 10 }, () => 1) }));
    step(history);
    expect(told).toEqual(["fell@low0", "rose@back0", "fell@again"]);
  });
});

describe("a provider's identity", () => {
  test("a model version it had not used is a notice, and its series start afresh: no rise or fall across the change", () => {
    const runs = [...steady(7, atSixty), run("after", { mentions: Array.from({ length: 10 }, () => 1), version: "m-2" })];
    expect(decide(runs)).toEqual([{ kind: "model-changed", provider: "openai", before: "m-1", after: "m-2" }]);
  });

  test("versions are a set: the same ones in another order are no change, and a rollout that comes and goes is told once", () => {
    expect(versionSet(["m-2, m-1", "m-1"])).toEqual(["m-1", "m-2"]);
    const versions = ["m-1", "m-1", "m-1, m-2", "m-1", "m-2, m-1", "m-2"];
    const notices = versions.map((version, i) => {
      const runs = versions.slice(0, i + 1).map((v, j) => run(`r${j}`, { mentions: [6, 5], version: v }));
      return decide(runs).filter((d) => d.kind === "model-changed").length;
    });
    expect(notices).toEqual([0, 0, 1, 0, 0, 0]);
  });

  test("the web-search tool is part of it; a rollup kept before tools were counted is not a change", () => {
    const change = (before: string, after: string) =>
      decide([run("a", { mentions: [6], version: before }), run("b", { mentions: [6], version: after })]).filter((d) => d.kind === "model-changed");
    expect(change("claude-haiku-5-5 (web_search_20260318)", "claude-haiku-5-5 (web_search_20260901)")).toHaveLength(1);
    expect(change("claude-haiku-5-5", "claude-haiku-5-5 (web_search_20260318)")).toEqual([]);
  });
});

test("Benjamini–Hochberg q-values: as R's p.adjust(method = 'BH')", () => {
  // p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
  expect(benjaminiHochberg([0.01, 0.04, 0.03, 0.005]).map((q) => Number(q.toFixed(4)))).toEqual([0.02, 0.04, 0.04, 0.02]);
});
