import { describe, expect, test } from "bun:test";
import type { RunRecord } from "#src/contract/search-result.ts";
import { addCounts, metricOf, subjectCounts } from "#src/core/trend.ts";

/* What a tracker's trend counts in each answer, and the figures read from the counts. */

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
    // Share of voice by the answer: the first answer named both (2 each), the second Globex alone, the third Acme alone: squares 4 + 1 + 1.
    expect(brand).toEqual({
      subject: "Acme",
      isBrand: true,
      answers: 3,
      mentions: 2,
      allMentions: 4,
      cited: 1,
      ranked: 2,
      positionSum: 3,
      positionSquares: 5,
      coMentions: 3,
      mentionSquares: 6,
    });
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
      coMentions: 3,
      mentionSquares: 6,
    });
  });

  test("counts add up over queries", () => {
    const [a] = subjectCounts([answer("Acme.")], acme, []);
    const [b] = subjectCounts([answer("Nothing here.")], acme, []);
    expect(addCounts(a!, b!)).toMatchObject({ answers: 2, mentions: 1, allMentions: 1 });
  });
});

describe("a metric from counts", () => {
  const counts = {
    subject: "Acme",
    isBrand: true,
    answers: 10,
    mentions: 6,
    allMentions: 15,
    cited: 0,
    ranked: 4,
    positionSum: 8,
    positionSquares: 20,
    // 3 answers name Acme and Globex, 3 Acme alone, 3 Globex and Initech, 1 none.
    coMentions: 9,
    mentionSquares: 27,
  };
  /** Answers as independent, and known to be: φ = 1 on infinitely many degrees of freedom. */
  const independent = { phi: 1, df: Number.POSITIVE_INFINITY };

  test("mention and citation: k of n, the rate in percent, inside Wilson's interval when answers are independent", () => {
    expect(metricOf("mention", counts, independent)).toEqual({ n: 10, k: 6, rate: 60, low: 31.27, high: 83.18 });
    expect(metricOf("citation", counts, independent)).toEqual({ n: 10, k: 0, rate: 0, low: 0, high: 27.75 });
  });

  test("a tracker's runs that vary widen the band: by their dispersion, and more when it was read off few runs", () => {
    const wilson = metricOf("mention", counts, independent);
    const twice = metricOf("mention", counts, { phi: 2, df: Number.POSITIVE_INFINITY });
    const twiceFromFew = metricOf("mention", counts, { phi: 2, df: 5 });
    expect(twice.rate).toBe(60);
    expect(twice.high! - twice.low!).toBeGreaterThan(wilson.high! - wilson.low!);
    expect(twiceFromFew.high! - twiceFromFew.low!).toBeGreaterThan(twice.high! - twice.low!);
    // Without a dispersion: the prior a tracker starts with (φ 2 on 4 degrees of freedom), never Wilson's on the answers.
    expect(metricOf("mention", counts).high! - metricOf("mention", counts).low!).toBeGreaterThan(twiceFromFew.high! - twiceFromFew.low!);
  });

  test("share of voice: the subject's mentions of all subjects', its band counted by the answer, not by the mention", () => {
    const share = metricOf("sov", counts, independent);
    expect(share).toMatchObject({ n: 15, k: 6, rate: 40 });
    // By the answer: Σ(x − 0.4·y)² = 3.12 over 15², ×10/9: a standard error of 12.4 points, 15.6 answers' worth (Wilson's on them).
    expect(share).toEqual({ n: 15, k: 6, rate: 40, low: 20.1, high: 63.86 });
    // Named in every answer with both rivals: a third exactly, each time — a narrow band, not one of 30 mentions.
    const always = { ...counts, answers: 10, mentions: 10, allMentions: 30, coMentions: 30, mentionSquares: 90 };
    const third = metricOf("sov", always, independent);
    expect(third.rate).toBe(33.33);
    expect(third.high! - third.low!).toBe(0);
  });

  test("position: the mean rank over the answers ranking it, a t interval on k − 1 degrees of freedom, never above first place; none under two answers; null when never ranked", () => {
    // Ranks 1, 1, 3, 3 (8 and 20): mean 2, sd 1.15; t(3) = 3.18: 2 ± 1.84.
    expect(metricOf("position", counts, independent)).toEqual({ n: 10, k: 4, rate: 2, low: 1, high: 3.84 });
    expect(metricOf("position", { ...counts, ranked: 1, positionSum: 2, positionSquares: 4 }, independent)).toEqual({
      n: 10,
      k: 1,
      rate: 2,
      low: null,
      high: null,
    });
    // Two answers ranking it first alike are not proof it never moves.
    const twice = metricOf("position", { ...counts, ranked: 2, positionSum: 2, positionSquares: 2 }, independent);
    expect(twice.high!).toBeGreaterThan(3);
    expect(metricOf("position", { ...counts, ranked: 0, positionSum: 0, positionSquares: 0 })).toEqual({ n: 10, k: 0, rate: null, low: null, high: null });
  });

  test("no answers: no rate", () => {
    expect(metricOf("mention", { ...counts, answers: 0, mentions: 0 })).toEqual({ n: 0, k: 0, rate: null, low: null, high: null });
  });
});
