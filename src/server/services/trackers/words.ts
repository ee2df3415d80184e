import { providerCatalogue } from "#src/contract/providers.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import type { AlertSide, TrackerAlert } from "#src/contract/trend.ts";
import { formatListedCost } from "#src/core/cost.ts";
import { formatInZone } from "#src/core/tracker-timing.ts";

/* A tracker's events in words, one line each: the webhooks' Slack text and the e-mails say them alike. */

/** "CRM: Mentions of HubSpot fell on ChatGPT / OpenAI: 60% (31.27–83.18%, n=10) → 20% (…); p = 0.0012, q = 0.041". */
export function alertInWords(trackerName: string, alert: TrackerAlert): string {
  const provider = providerCatalogue[alert.provider].name;
  if (alert.kind === "model-changed")
    return `${trackerName}: ${provider}'s model changed: ${alert.modelVersions?.before} → ${alert.modelVersions?.after}. No rise or fall is called across it.`;
  const what = alert.metric === "citation" ? `Citations of ${alert.subject}'s site` : `Mentions of ${alert.subject}`;
  const where = alert.query ? ` for "${alert.query}"` : "";
  const side = (s: AlertSide) => `${s.rate}% (${s.low}–${s.high}%, n=${s.n})`;
  const test =
    alert.rule === 1
      ? `p = ${alert.p?.toPrecision(2)}, q = ${alert.q?.toPrecision(2)} by the earlier rule, which took a run's answers as independent`
      : `p = ${alert.p?.toPrecision(2)}, q = ${alert.q?.toPrecision(2)}, beyond how much this tracker's runs vary${alert.dispersion ? ` (×${alert.dispersion.phi})` : ""}`;
  return `${trackerName}: ${what} ${alert.kind} on ${provider}${where}: ${side(alert.before!)} → ${side(alert.after!)}; ${test}`;
}

/** "CRM: run completed, 30 of 30 answers, cost $0.00 (simulated)", or why it failed. */
export function runInWords(trackerName: string, event: string, run: Pick<TrackerRun, "status" | "reason" | "answers" | "cost">): string {
  if (event === "run.failed") return `${trackerName}: the run failed${run.reason ? `: ${run.reason}` : ""}`;
  return `${trackerName}: run ${run.status}, ${run.answers.done} of ${run.answers.expected} answers, cost ${formatListedCost({ costUsd: run.cost.usd, simulated: run.cost.simulated })}`;
}

/** "CRM: the run due Dec 7, 2026, 09:00 (Europe/Berlin) did not happen: the previous run was still going". */
export function missedInWords(trackerName: string, missed: { dueAt: string; reason: string }, timeZone: string): string {
  return `${trackerName}: the run due ${formatInZone(missed.dueAt, timeZone)} did not happen: ${missed.reason}`;
}
