import { describe, expect, test } from "bun:test";
import type { RunRecord } from "#src/contract/search-result.ts";
import { providerChanges, topListChanges } from "#src/core/changes.ts";
import { frequencies } from "#src/core/stats.ts";
import { providerIds } from "#src/contract/providers.ts";
import { composeAnswer } from "#dev/simulators/answers.ts";
import { DEMO_RUN_EFFECTS } from "#dev/simulators/index.ts";
import { createRng } from "#dev/simulators/random.ts";
import { createRunEffects } from "#dev/simulators/run-effects.ts";

/* What entered and left a tracker's top lists between two windows of answers. */

const answer = (products: string[], sources: string[] = [], companies: string[] = []): RunRecord => ({
  status: "ok",
  text: "",
  products,
  companies,
  sources,
  searchQueries: [],
});

/** A window where item i is named by `counts[i]` of `n` answers. */
const window = (counts: Record<string, number>, n: number) => {
  const answers: string[][] = Array.from({ length: n }, () => []);
  for (const [name, count] of Object.entries(counts)) for (let i = 0; i < count; i++) answers[i]!.push(name);
  return { items: frequencies(answers, n), n };
};

describe("entering and leaving the top 10", () => {
  test("an item new to the top 10 entered, one no longer in it left, each with its count and n in both windows; the ones that stayed are not listed", () => {
    const stayed = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`Stay ${i}`, 10]));
    const before = window({ ...stayed, "Old CRM": 8, "HubSpot CRM": 2 }, 20);
    const after = window({ ...stayed, "HubSpot CRM": 7, "Old CRM": 1 }, 20);
    expect(topListChanges(before, after)).toEqual({
      entered: [{ name: "HubSpot CRM", before: { count: 2, n: 20 }, after: { count: 7, n: 20 } }],
      left: [{ name: "Old CRM", before: { count: 8, n: 20 }, after: { count: 1, n: 20 } }],
      withinNoise: 0,
    });
  });

  test("an item gone from the answers left with a count of 0; most named first; names meet case-insensitively", () => {
    const before = window({ Pipedrive: 5, Zoho: 9, Monday: 3 }, 10);
    const after = window({ zoho: 4 }, 12);
    expect(topListChanges(before, after)).toEqual({
      entered: [],
      left: [
        { name: "Pipedrive", before: { count: 5, n: 10 }, after: { count: 0, n: 12 } },
        { name: "Monday", before: { count: 3, n: 10 }, after: { count: 0, n: 12 } },
      ],
      withinNoise: 0,
    });
  });

  test("items tied at the 10th place are all in the top list: two equally named items never swap on their names' order alone", () => {
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`Top ${i}`, 9]));
    // Before, "Beta" is 10th and "Zeta" 11th by name; after, a new "Alpha" ties with them: nothing but Alpha changed.
    const before = window({ ...nine, Beta: 2, Zeta: 2 }, 10);
    const after = window({ ...nine, Alpha: 2, Beta: 2, Zeta: 2 }, 10);
    expect(topListChanges(before, after)).toEqual({
      entered: [{ name: "Alpha", before: { count: 0, n: 10 }, after: { count: 2, n: 10 } }],
      left: [],
      withinNoise: 0,
    });
  });

  test("a provider's windows: products, companies and cited domains (hosts, an answer citing a site once), with each window's runs and answers; only moves beyond the noise listed", () => {
    // A week of runs naming Acme in every answer and citing g2.com, then a run naming Globex instead and citing reddit.com.
    const steadyRun = (i: number) => ({
      runId: `r${i}`,
      answers: Array.from({ length: 10 }, (_, a) =>
        answer(["Acme", ...(a < 4 + (i % 2) ? ["Initech"] : [])], ["https://www.g2.com/a", "https://g2.com/b"], ["Acme Inc"]),
      ),
    });
    const changes = providerChanges(
      Array.from({ length: 7 }, (_, i) => steadyRun(i)),
      [{ runId: "new", answers: Array.from({ length: 10 }, (_, a) => answer(["Globex", ...(a < 5 ? ["Initech"] : [])], ["https://reddit.com/r/crm"])) }],
    );
    expect(changes.windows).toEqual({ before: { runIds: ["r0", "r1", "r2", "r3", "r4", "r5", "r6"], n: 70 }, after: { runIds: ["new"], n: 10 } });
    expect(changes.products).toEqual({
      entered: [{ name: "Globex", before: { count: 0, n: 70 }, after: { count: 10, n: 10 } }],
      left: [{ name: "Acme", before: { count: 70, n: 70 }, after: { count: 0, n: 10 } }],
      withinNoise: 0,
    });
    expect(changes.companies.left).toEqual([{ name: "Acme Inc", before: { count: 70, n: 70 }, after: { count: 0, n: 10 } }]);
    expect(changes.domains).toEqual({
      entered: [{ name: "reddit.com", before: { count: 0, n: 70 }, after: { count: 10, n: 10 } }],
      left: [{ name: "g2.com", before: { count: 70, n: 70 }, after: { count: 0, n: 10 } }],
      withinNoise: 0,
    });
  });

  test("a move within the noise is not listed, only counted: one answer of ten naming a newcomer, or an item a few answers fewer", () => {
    const run = (runId: string, names: (i: number) => string[]) => ({ runId, answers: Array.from({ length: 10 }, (_, i) => answer(names(i))) });
    const ten = Array.from({ length: 10 }, (_, i) => `Top ${i}`);
    const before = Array.from({ length: 7 }, (_, r) => run(`r${r}`, (i) => [...ten.slice(0, 9), ...(i < 4 + (r % 3) ? ["Top 9"] : [])]));
    const after = [run("new", (i) => [...ten.slice(0, 9), ...(i < 2 ? ["Top 9"] : []), ...(i < 3 ? ["Newcomer"] : [])])];
    const changes = providerChanges(before, after);
    expect(changes.products.entered).toEqual([]);
    expect(changes.products.left).toEqual([]);
    expect(changes.products.withinNoise).toBe(2);
  });
});

describe("on a stable tracker, as the simulated assistants answer (their runs vary as real ones do)", () => {
  test("at least 90% of comparisons list nothing; without the noise test almost every one listed something", () => {
    const questions = ["best crm for startups", "best running shoes", "best project management software", "best password manager"];
    let comparisons = 0;
    let listing = 0;
    let naive = 0;
    for (const [q, question] of questions.entries())
      for (const provider of providerIds) {
        let now = Date.UTC(2026, 0, 1);
        const effects = createRunEffects(q + 1, { ...DEMO_RUN_EFFECTS, clock: () => now });
        const rng = createRng(1000 + q);
        const runs = Array.from({ length: 20 }, (_, r) => {
          now += 86_400_000;
          const effect = effects(provider, question);
          return {
            runId: `r${r}`,
            answers: Array.from({ length: 10 }, () => {
              const drawn = composeAnswer(rng, question, {
                provider,
                search: true,
                structured: false,
                searches: { min: 1, max: 3 },
                formatVariety: 0,
                noise: 0,
                effect,
              });
              return answer(
                drawn.products.map((p) => p.name),
                drawn.cited.map((page) => page.url),
                drawn.companies.map((c) => c.name),
              );
            }),
          };
        });
        for (let at = 7; at < runs.length; at++) {
          const changes = providerChanges(runs.slice(at - 7, at), runs.slice(at, at + 1));
          comparisons++;
          const lists = [changes.products, changes.companies, changes.domains];
          if (lists.some((list) => list.entered.length + list.left.length > 0)) {
            listing++;
            if (process.env.SHOW) console.log(question, provider, at, JSON.stringify(lists.map((l) => [...l.entered, ...l.left])));
          }
          if (lists.some((list) => list.withinNoise + list.entered.length + list.left.length > 0)) naive++;
        }
      }
    console.log(
      `"What changed" on stable simulated trackers (run effects on): ${comparisons - listing} of ${comparisons} comparisons list nothing (${((100 * (comparisons - listing)) / comparisons).toFixed(1)}%); without the noise test ${naive} would have listed something`,
    );
    expect((comparisons - listing) / comparisons).toBeGreaterThanOrEqual(0.9);
  });
});
