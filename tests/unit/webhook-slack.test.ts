import { describe, expect, test } from "bun:test";
import { slackMessage, type SlackBlock } from "#src/server/services/trackers/slack.ts";
import type { WebhookPayload } from "#src/server/services/trackers/webhook-event.ts";

/*
 * A tracker's events as Slack Block Kit messages: the plain `text` fallback, the tracker's name and
 * what happened with the run's figures, why a run failed or did not happen, the alert in words and
 * a button to the tracker. What users wrote is shown, never acted on, in the blocks as in the text.
 */

const TRACKER_URL = "https://aisc.example.com/trackers/7c9e6679-7425-40de-944b-e07fc1f90ae7";
const HOSTILE = "<!channel> CRM & <https://evil.example|co> @here";
const tracker = { id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", name: HOSTILE, timezone: "Europe/Berlin" };
const run = {
  id: "r1",
  status: "completed" as const,
  scheduledFor: "2026-12-07T08:00:00.000Z",
  finishedAt: "2026-12-07T08:01:00.000Z",
  answers: { expected: 30, done: 30, failed: 0 },
  cost: { usd: 0, simulated: true },
};

/** Every text a block carries, as Slack would read it. */
function texts(blocks: SlackBlock[]): string[] {
  return blocks.flatMap((block) => {
    if (block.type === "actions") return block.elements.map((element) => element.text.text);
    return "fields" in block ? block.fields.map((field) => field.text) : [block.text.text];
  });
}

/** No `<` or `>` outside our own markup: nothing a user wrote can mention, link or ping. */
function inert(message: { text: string; blocks: SlackBlock[] }): void {
  for (const text of [message.text, ...texts(message.blocks)]) {
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toMatch(/@here\b/);
  }
}

describe("Slack messages", () => {
  test("a completed run: its figures side by side, the plain text fallback, a button to the tracker", () => {
    const message = slackMessage("run.completed", { tracker, run } satisfies WebhookPayload, { trackerUrl: TRACKER_URL });
    expect(message.text).toBe(
      "&lt;!channel&gt; CRM &amp; &lt;https://evil.example|co&gt; @\u200bhere: run completed, 30 of 30 answers, cost $0.00 (simulated)",
    );
    expect(message.blocks[0]).toEqual({
      type: "section",
      text: { type: "mrkdwn", text: "*&lt;!channel&gt; CRM &amp; &lt;https://evil.example|co&gt; @\u200bhere*: run completed" },
    });
    expect(message.blocks[1]).toEqual({
      type: "section",
      fields: [
        { type: "mrkdwn", text: "*Status:*\nCompleted" },
        { type: "mrkdwn", text: "*Answers:*\n30 of 30" },
        { type: "mrkdwn", text: "*Cost:*\n$0.00 (simulated)" },
        { type: "mrkdwn", text: "*Run of:*\nDec 7, 2026, 09:00 (Europe/Berlin)" },
      ],
    });
    expect(message.blocks.at(-1)).toEqual({
      type: "actions",
      elements: [{ type: "button", text: { type: "plain_text", text: "Open the tracker" }, url: TRACKER_URL }],
    });
    inert(message);
  });

  test("a failed run and a run that did not happen say so, and why, escaped", () => {
    const failed = slackMessage(
      "run.failed",
      { tracker, run: { ...run, status: "failed", reason: "every provider failed <!everyone>" } },
      { trackerUrl: TRACKER_URL },
    );
    expect(texts(failed.blocks)).toContain("*Status:*\nFailed");
    expect(texts(failed.blocks)).toContain("*Why:* every provider failed &lt;!everyone&gt;");
    expect(failed.text).toContain(": the run failed: every provider failed &lt;!everyone&gt;");
    inert(failed);

    const missed = slackMessage(
      "run.missed",
      { tracker, missed: { dueAt: "2026-12-07T08:00:00.000Z", reason: "the previous run was still going" } },
      { trackerUrl: TRACKER_URL },
    );
    expect(texts(missed.blocks)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(": a run did not happen"),
        "*Status:*\nDid not run",
        "*Was due:*\nDec 7, 2026, 09:00 (Europe/Berlin)",
        "*Why:* the previous run was still going",
      ]),
    );
    expect(missed.text).toEndWith("the run due Dec 7, 2026, 09:00 (Europe/Berlin) did not happen: the previous run was still going");
    inert(missed);
  });

  test("an alert in words, its subject and query escaped; a headline goes first, escaped", () => {
    const side = { k: 6, n: 10, rate: 60, low: 31, high: 83 };
    const alert = {
      id: "a",
      kind: "fell" as const,
      metric: "mention" as const,
      provider: "openai" as const,
      subject: "<@U123> & co",
      query: "best <https://x.example|crm>",
      before: side,
      after: { ...side, k: 2, rate: 20 },
      p: 0.001,
      q: 0.04,
      rule: 2 as const,
      runId: "r",
      at: "2026-01-01T00:00:00.000Z",
      searchIds: [],
    };
    const message = slackMessage("alert", { tracker, alert }, { trackerUrl: TRACKER_URL, headline: "<!here> HubSpot named in 62% of answers, #2" });
    expect(message.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: "&lt;!here&gt; HubSpot named in 62% of answers, #2" } });
    expect(texts(message.blocks).join("\n")).toContain("Mentions of &lt;@U123&gt; &amp; co fell on");
    expect(message.text).toContain('for "best &lt;https://x.example|crm&gt;"');
    inert(message);
  });

  test("a test message says it is a test", () => {
    const message = slackMessage("test", { tracker: { ...tracker, name: "CRM" } }, { trackerUrl: TRACKER_URL });
    expect(message.text).toStartWith("CRM: A test from AI Search Comparison");
    expect(message.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: "*CRM*: test message" } });
    expect(texts(message.blocks)).toContain(message.text.slice("CRM: ".length));
  });
});
