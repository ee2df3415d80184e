import { formatListedCost } from "#src/core/cost.ts";
import { visibleText } from "#src/core/display-text.ts";
import { formatInZone, STATUS_WORD } from "#src/core/tracker-timing.ts";
import type { WebhookEvent, WebhookPayload } from "./webhook-event.ts";
import { alertInWords, missedInWords, runInWords } from "./words.ts";

/*
 * A tracker's event as a Slack message: Block Kit `blocks` for Slack, and `text`, the one line
 * Slack shows in notifications and clients without blocks (and all Discord's Slack-compatible
 * webhooks show). Every text the user wrote passes through slackText, in blocks and text alike.
 */

type Mrkdwn = { type: "mrkdwn"; text: string };
export type SlackBlock =
  | { type: "section"; text: Mrkdwn }
  | { type: "section"; fields: Mrkdwn[] }
  | { type: "actions"; elements: Array<{ type: "button"; text: { type: "plain_text"; text: string }; url: string }> };
export type SlackMessage = { text: string; blocks: SlackBlock[] };

/** Slack's limits: a section's text 3000 characters, a field's 2000. Ours are far shorter; these keep a long reason from losing the message. */
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;

export const TEST_WORDS = "A test from AI Search Comparison: this tracker's webhook reaches here. Its runs, alerts and missed runs will be posted like this.";

/**
 * The message for an event: first `headline` when given (a plain sentence, such as the brand's
 * visibility and rank), then the tracker's name and what happened, with the run's figures (status,
 * answers, cost, when; why it failed or did not run), the alert in words, and a button to the
 * tracker's page.
 */
export function slackMessage(event: WebhookEvent, payload: WebhookPayload, { trackerUrl, headline }: { trackerUrl: string; headline?: string }): SlackMessage {
  const blocks: SlackBlock[] = [
    ...(headline ? [section(slackText(headline))] : []),
    section(`*${slackText(payload.tracker.name)}*: ${titleOf(event, payload)}`),
    ...detailOf(event, payload),
    { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open the tracker" }, url: trackerUrl }] },
  ];
  return { text: slackText(eventInWords(event, payload)), blocks };
}

/**
 * Text for Slack's mrkdwn (and Discord's Slack-compatible webhooks): what users wrote stays as
 * written and does nothing. One line, unseen characters named (visibleText); `&`, `<` and `>`
 * escaped, Slack's rule, so `<!channel>` or `<https://…|text>` is shown, not acted on; and
 * `@everyone` / `@here`, which Discord would act on, broken by a zero-width space.
 */
export function slackText(text: string): string {
  return visibleText(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@(everyone|here)\b/gi, "@\u200b$1");
}

/** The event in one line (the `text` fallback), before escaping. */
export function eventInWords(event: WebhookEvent, { tracker, run, alert, missed }: WebhookPayload): string {
  if (event === "test") return `${tracker.name}: ${TEST_WORDS}`;
  if (alert) return alertInWords(tracker.name, alert);
  if (missed) return missedInWords(tracker.name, missed, tracker.timezone ?? "UTC");
  return run ? runInWords(tracker.name, event, run) : `${tracker.name}: ${event}`;
}

/** What happened, in a few words after the name (our words: no escaping needed). */
function titleOf(event: WebhookEvent, { run }: WebhookPayload): string {
  switch (event) {
    case "test":
      return "test message";
    case "alert":
      return "alert";
    case "run.missed":
      return "a run did not happen";
    case "run.failed":
      return "the run failed";
    case "run.completed":
      return run?.status === "partial" ? "run ended with answers missing" : "run completed";
  }
}

function detailOf(event: WebhookEvent, payload: WebhookPayload): SlackBlock[] {
  const zone = payload.tracker.timezone ?? "UTC";
  if (event === "test") return [section(TEST_WORDS)];
  if (payload.alert) return [section(slackText(alertInWords(payload.tracker.name, payload.alert)))];
  if (payload.missed)
    return [
      fields([
        ["Status", "Did not run"],
        ["Was due", formatInZone(payload.missed.dueAt, zone)],
      ]),
      section(`*Why:* ${slackText(payload.missed.reason)}`),
    ];
  const { run } = payload;
  if (!run) return [];
  const figures = fields([
    ["Status", STATUS_WORD[run.status]],
    ["Answers", `${run.answers.done} of ${run.answers.expected}${run.answers.failed ? ` (${run.answers.failed} failed)` : ""}`],
    ["Cost", formatListedCost({ costUsd: run.cost.usd, simulated: run.cost.simulated })],
    ["Run of", formatInZone(run.scheduledFor, zone)],
  ]);
  return run.reason ? [figures, section(`*Why:* ${slackText(run.reason)}`)] : [figures];
}

function section(text: string): SlackBlock {
  return { type: "section", text: { type: "mrkdwn", text: clip(text, SECTION_MAX) } };
}

/** Label and value pairs side by side; the values are ours or escaped by the caller. */
function fields(pairs: Array<[label: string, value: string]>): SlackBlock {
  return { type: "section", fields: pairs.map(([label, value]) => ({ type: "mrkdwn", text: clip(`*${label}:*\n${value}`, FIELD_MAX) })) };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
