import { afterAll, describe, expect, test } from "bun:test";
import { offModelResult } from "#src/contract/search-result.ts";
import { type AnswerFixture, loadFixtures } from "../../scripts/eval/fixtures.ts";
import { emptyLog, replayProviders, startReplayServer } from "../../scripts/eval/replay.ts";
import { scoreRow, summarize } from "../../scripts/eval/score.ts";

/*
 * The eval's labelled set (tests/fixtures/answers/) and its scorer: the answers are natural (asked
 * as typed, no JSON block), each extraction's labelled mistakes are what they say they are, and a
 * kept name the answer never gives fails the floor.
 */

const fixtures = loadFixtures();
const replay = startReplayServer();
const providers = replayProviders(replay);
afterAll(() => replay.stop());

// The answer as the product reads it: the fixture's body through its provider's adapter and SDK.
async function answerOf(fixture: AnswerFixture): Promise<string> {
  const adapter = providers[fixture.provider];
  if (!adapter) throw new Error(`${fixture.provider} is not connected`);
  replay.play(fixture);
  const answer = await adapter.search({ query: fixture.query, options: {}, signal: new AbortController().signal });
  return answer.text;
}

const lower = (text: string) => text.toLowerCase();

describe("the labelled answers", () => {
  test("are natural answers: no JSON block, no structured summary, every answer with an extraction that carries mistakes", async () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(81);
    for (const fixture of fixtures) {
      const text = await answerOf(fixture);
      expect({ id: fixture.id, block: /```|"products"\s*:|structured summary/i.test(text) }).toEqual({ id: fixture.id, block: false });
      expect(fixture.extraction).toBeDefined();
    }
    const kinds = new Set(fixtures.flatMap((fixture) => fixture.extractorErrors.map((error) => error.kind)));
    expect([...kinds].sort()).toEqual(["category", "company-as-product", "fragment", "invented", "misspelt", "not-found", "possessive", "unnamed-company"]);
  });

  test("each labelled mistake is what it says: names not in the answer are absent from it, pieces and makers are in it", async () => {
    for (const fixture of fixtures) {
      // Without markdown emphasis: a model copying a line drops the asterisks.
      const text = lower((await answerOf(fixture)).replace(/\*/g, ""));
      for (const error of fixture.extractorErrors) {
        const inAnswer = text.includes(lower(error.name));
        if (error.kind === "invented" || error.kind === "unnamed-company" || error.kind === "misspelt")
          expect({ id: fixture.id, ...error, inAnswer }).toEqual({ id: fixture.id, ...error, inAnswer: false });
        if (error.kind === "fragment" || error.kind === "company-as-product")
          expect({ id: fixture.id, ...error, inAnswer }).toEqual({ id: fixture.id, ...error, inAnswer: true });
      }
    }
  });

  test("offsets into the text stay valid: OpenAI citations inside the text, Gemini segments on their own bytes", () => {
    for (const fixture of fixtures) {
      const response = fixture.response as Record<string, any>;
      if (fixture.provider === "openai")
        for (const item of response.output.filter((o: { type: string }) => o.type === "message"))
          for (const part of item.content)
            for (const a of part.annotations) {
              expect(a.end_index).toBeLessThanOrEqual(part.text.length);
              expect(a.start_index).toBeLessThan(a.end_index);
            }
      if (fixture.provider === "gemini") {
        const candidate = response.candidates[0];
        const bytes = Buffer.from(candidate.content.parts.map((p: { text?: string }) => p.text ?? "").join(""));
        for (const support of candidate.groundingMetadata?.groundingSupports ?? [])
          expect(bytes.subarray(support.segment.startIndex ?? 0, support.segment.endIndex).toString()).toBe(support.segment.text);
      }
    }
  });
});

describe("the scorer", () => {
  const fixture = fixtures.find((f) => f.id === "vacuums-openai");
  if (!fixture) throw new Error("vacuums-openai is missing");
  const first = (entry: string | string[]) => (typeof entry === "string" ? entry : (entry[0] ?? ""));
  const truthful = {
    ...offModelResult("openai"),
    status: "ok" as const,
    products: fixture.truth.products.map((entry) => ({ name: first(entry) })),
    companies: fixture.truth.companies.map((entry) => ({ name: first(entry), products: [] })),
    sources: fixture.truth.cited.map((url) => ({ url, title: url, cited: true })),
  };

  test("the truth read back meets the floor, and the grounding count is carried", () => {
    const summary = summarize([scoreRow(fixture, { ...truthful, ungrounded: 3 }, emptyLog())]);
    expect(summary.failures).toEqual([]);
    expect(summary.ungrounded).toBe(3);
  });

  test("an invented name kept fails the floor even when the F1 would pass", () => {
    const kept = { ...truthful, products: [...truthful.products, { name: "Dreame L40 Ultra" }] };
    const summary = summarize([scoreRow(fixture, kept, emptyLog())]);
    expect(summary.products.f1).toBeGreaterThan(0.9);
    expect(summary.inventedKept).toEqual(["Dreame L40 Ultra (vacuums-openai)"]);
    expect(summary.errors.invented).toEqual({ total: 1, kept: 1 });
    expect(summary.failures).toContain("1 names the answer never gives kept");
  });

  test("a search call that adds to the query is a problem", () => {
    const log = { ...emptyLog(), searches: 1, searchPrompts: [`${fixture.query}\n\nThen, at the very end of your reply, add a fenced json block`] };
    const summary = summarize([scoreRow(fixture, truthful, log)]);
    expect(summary.failures).toContain("1 replay problems");
  });
});
