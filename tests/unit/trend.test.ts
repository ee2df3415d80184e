import { describe, expect, test } from "bun:test";
import type { RunRecord } from "#src/contract/search-result.ts";
import { addCounts, metricOf, subjectCounts } from "#src/core/trend.ts";

/* Issue 26: what a tracker's trend counts in each answer, and the figures read from the counts. */

const answer = (text: string, products: string[] = [], sources: string[] = []): RunRecord => ({
  status: "ok",
  text,
  products,
  companies: [],
  sources,
  searchQueries: [],
});

const acme = { name: "Acme", aliases: [], domains: ["acme.com"] };
const globex = { name: "Globex", aliases: [], domains: ["globex.com"] };

describe("what an answer counts for", () => {
  test("a mention, never in a 'could not find'; a citation of its own domain or a subdomain; its rank among the products", () => {
    const runs = [
      answer("Acme and Globex both lead the field.", ["Globex Pro", "Acme Suite"], ["https://shop.acme.com/crm", "https://reviews.example.com"]),
      answer("I couldn't find anything about Acme. Globex is popular.", ["Globex Pro"], ["https://globex.com"]),
      answer("Acme is the best choice.", ["Acme Suite"], ["https://notacme.com"]),
    ];
    const [brand, rival] = subjectCounts(runs, acme, [globex]);
    expect(brand).toEqual({ subject: "Acme", isBrand: true, answers: 3, mentions: 2, allMentions: 4, cited: 1, ranked: 2, positionSum: 3, positionSquares: 5 });
    expect(rival).toEqual({
      subject: "Globex",
      isBrand: false,
      answers: 3,
      mentions: 2,
      allMentions: 4,
      cited: 1,
      ranked: 2,
      positionSum: 2,
      positionSquares: 2,
    });
  });

  test("counts add up over queries", () => {
    const [a] = subjectCounts([answer("Acme.")], acme, []);
    const [b] = subjectCounts([answer("Nothing here.")], acme, []);
    expect(addCounts(a!, b!)).toMatchObject({ answers: 2, mentions: 1, allMentions: 1 });
  });
});

describe("a metric from counts", () => {
  const counts = { subject: "Acme", isBrand: true, answers: 10, mentions: 6, allMentions: 15, cited: 0, ranked: 4, positionSum: 8, positionSquares: 20 };

  test("mention, share of voice and citation: k of n, the rate in percent, inside its Wilson interval", () => {
    expect(metricOf("mention", counts)).toEqual({ n: 10, k: 6, rate: 60, low: 31.27, high: 83.18 });
    expect(metricOf("sov", counts)).toMatchObject({ n: 15, k: 6, rate: 40 });
    expect(metricOf("citation", counts)).toEqual({ n: 10, k: 0, rate: 0, low: 0, high: 27.75 });
  });

  test("position: the mean rank over the answers ranking it, with a 95% interval never above first place; none when never ranked", () => {
    // Ranks 2, 2, 2, 2 would be 8 and 16; these are 1, 1, 3, 3 (8 and 20): mean 2, sd 1.15.
    expect(metricOf("position", counts)).toEqual({ n: 10, k: 4, rate: 2, low: 1, high: 3.13 });
    expect(metricOf("position", { ...counts, ranked: 0, positionSum: 0, positionSquares: 0 })).toEqual({ n: 10, k: 0, rate: null, low: null, high: null });
  });

  test("no answers: no rate", () => {
    expect(metricOf("mention", { ...counts, answers: 0, mentions: 0 })).toEqual({ n: 0, k: 0, rate: null, low: null, high: null });
  });
});
