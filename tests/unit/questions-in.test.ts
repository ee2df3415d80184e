import { describe, expect, test } from "bun:test";
import { dailySpendWarning } from "#src/core/cost.ts";
import { parseQuestionCsv, planImport } from "#src/core/question-csv.ts";
import { describeSchedule, runsPerDay } from "#src/core/schedule.ts";
import { pooled } from "#src/server/services/trackers/rollups.ts";
import { tagsFor, withQuestions } from "#web/lib/tracker-form.ts";

/* Questions in: a CSV of questions and tags, the runs a schedule makes in a day and the spend warning, and a tag's questions pooled. */

describe("a CSV of questions", () => {
  test("question[,tag] rows, a header row left out, quotes, commas and line breaks in quotes, CRLF and a BOM", () => {
    const text =
      '\uFEFFQuestion,Tag\r\n"best crm, for startups",Startups\r\ncrm with a free plan\r\n\r\n"the ""best"" crm\r\nfor agencies", Agencies ,extra\r\n';
    expect(parseQuestionCsv(text)).toEqual([
      { line: 2, question: "best crm, for startups", tag: "Startups" },
      { line: 3, question: "crm with a free plan" },
      { line: 5, question: 'the "best" crm for agencies', tag: "Agencies" },
    ]);
  });

  test("without a header the first row is a question; a lone column is questions only", () => {
    expect(parseQuestionCsv("best crm\ncheapest crm")).toEqual([
      { line: 1, question: "best crm" },
      { line: 2, question: "cheapest crm" },
    ]);
    expect(parseQuestionCsv("queries\nbest crm")).toEqual([{ line: 2, question: "best crm" }]);
    expect(parseQuestionCsv("")).toEqual([]);
  });

  test("what an import adds and skips: blanks, repeats (any case, of the form or the file) and those past the limit", () => {
    const rows = parseQuestionCsv("question,tag\nBest CRM\nnew one,A\n ,B\nnew one\nsecond,B\nthird");
    expect(planImport(["best crm", "other"], rows, 4)).toEqual({
      added: [
        { question: "new one", tag: "A" },
        { question: "second", tag: "B" },
      ],
      skipped: [
        { line: 2, question: "Best CRM", reason: "duplicate" },
        { line: 4, question: "", reason: "empty" },
        { line: 5, question: "new one", reason: "duplicate" },
        { line: 7, question: "third", reason: "over-limit" },
      ],
    });
  });
});

describe("runs a day and the spend warning", () => {
  test("a cron's runs on a day it fires, and whether it fires every day", () => {
    expect(runsPerDay("0 * * * *")).toEqual({ runs: 24, everyDay: true });
    expect(runsPerDay("* * * * *")).toEqual({ runs: 1440, everyDay: true });
    expect(runsPerDay("*/15 9-17 * * 1-5")).toEqual({ runs: 36, everyDay: false });
    expect(runsPerDay("0 9 * * *")).toEqual({ runs: 1, everyDay: true });
    expect(runsPerDay("0 9 * * MON")).toEqual({ runs: 1, everyDay: false });
    expect(runsPerDay("0,30 9 1 JAN-MAR *")).toEqual({ runs: 2, everyDay: false });
    expect(runsPerDay("0 9 * * 0-7")).toEqual({ runs: 1, everyDay: true });
    expect(runsPerDay("0 9 31 2 *")).toBeNull();
    expect(runsPerDay("61 * * * *")).toBeNull();
    expect(runsPerDay("0 9 * *")).toBeNull();
  });

  test("the warning says the schedule, the day's cost and the limit, only past a limit that is set", () => {
    const hourly = { cron: "0 * * * *", timezone: "UTC" };
    const words = describeSchedule(hourly);
    expect(dailySpendWarning({ scheduleText: words, perRunUsd: 6.25, day: runsPerDay(hourly.cron), limitUsd: 20 })).toBe(
      "Every hour at minute 0 (UTC), this tracker costs about $150.00 a day; your limit is $20.00.",
    );
    expect(dailySpendWarning({ scheduleText: "Every Monday at 09:00 (UTC)", perRunUsd: 25, day: runsPerDay("0 9 * * 1"), limitUsd: 20 })).toBe(
      "Every Monday at 09:00 (UTC), this tracker costs about $25.00 on each day it runs; your limit is $20.00.",
    );
    expect(dailySpendWarning({ scheduleText: words, perRunUsd: 0.5, day: runsPerDay(hourly.cron), limitUsd: 20 })).toBeNull();
    expect(dailySpendWarning({ scheduleText: words, perRunUsd: 6.25, day: runsPerDay(hourly.cron), limitUsd: 0 })).toBeNull();
    expect(dailySpendWarning({ scheduleText: words, perRunUsd: null, day: runsPerDay(hourly.cron), limitUsd: 20 })).toBeNull();
    expect(dailySpendWarning({ scheduleText: words, perRunUsd: 6.25, day: null, limitUsd: 20 })).toBeNull();
  });
});

describe("a tag's questions pooled", () => {
  const counts = (subject: string, answers: number, mentions: number) => ({
    subject,
    isBrand: subject === "Acme",
    answers,
    mentions,
    allMentions: mentions + 1,
    cited: 1,
    ranked: 1,
    positionSum: 2,
    positionSquares: 4,
    coMentions: mentions,
    mentionSquares: mentions + 1,
  });
  const row = (runId: string, query: string, subject: string, answers: number, mentions: number, modelVersion = "m-1") => ({
    runId,
    at: 0,
    provider: "openai" as const,
    query,
    modelVersion,
    segment: 1,
    counts: counts(subject, answers, mentions),
  });

  test("per run, provider and subject, the questions' counts summed and their model versions merged, in the rows' order", () => {
    const out = pooled([row("r1", "a", "Acme", 3, 1), row("r1", "b", "Acme", 3, 2, "m-2"), row("r1", "a", "Rival", 3, 0), row("r2", "a", "Acme", 3, 3)]);
    expect(
      out.map((one) => [one.runId, one.counts.subject, one.counts.answers, one.counts.mentions, one.counts.allMentions, one.modelVersion, one.query]),
    ).toEqual([
      ["r1", "Acme", 6, 3, 5, "m-1, m-2", ""],
      ["r1", "Rival", 3, 0, 1, "m-1", ""],
      ["r2", "Acme", 3, 3, 4, "m-1", ""],
    ]);
  });
});

describe("the form's questions and tags", () => {
  test("added questions are new lines with their tags; only the tags of questions asked are sent, in their order", () => {
    const next = withQuestions({ queries: "best crm\n", questionTags: { "best crm": "A" } }, [
      { question: "cheap crm", tag: "Pricing" },
      { question: "crm for agencies" },
    ]);
    expect(next).toEqual({ queries: "best crm\ncheap crm\ncrm for agencies", questionTags: { "best crm": "A", "cheap crm": "Pricing" } });
    expect(tagsFor(["cheap crm", "best crm"], { "best crm": " A ", gone: "B", "cheap crm": "" })).toEqual({ "best crm": "A" });
  });
});
