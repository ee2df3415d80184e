import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { AlertSide, TrackerAlert } from "#src/contract/trend.ts";
import { visibleText } from "#src/core/display-text.ts";
import { intervalText } from "#src/core/stats.ts";
import { simulatedLine } from "./render.ts";
import { when } from "./trackers.ts";
import type { SimulatedFlags } from "./trend.ts";

/*
 * A tracker's alerts as people read them (ADR 050's rule, ADR 045's before it): `aisc
 * track alerts` prints a short block per alert (its sentence, then links to the answers behind
 * it), the MCP tool `tracker_alerts` a line per alert with the saved searches' ids. Every figure is
 * the API's. A rise or a fall says what its test counted with (the runs' spread φ and its
 * baseline's runs); one decided by the earlier rule, which took a run's answers as independent, says it may be noise.
 */

/** What the metric counts, as the sentence names it. */
const METRIC_TEXT = {
  mention: (subject: string) => `Mentions of ${subject}`,
  citation: (subject: string) => `Citations of ${subject}'s own domains`,
} as const;

export const NO_ALERTS =
  "No alerts: no rate has moved beyond how much this tracker's runs vary from run to run, and no provider's model or search tool has changed.";

/** Said of a rise or a fall decided by the earlier rule (ADR 045), whose record is kept. */
export const EARLIER_RULE = "Decided by the earlier rule (before Dec 2026), which took a run's answers as independent: it may be noise.";

/**
 * The alert in plain words, with when the run that found it was scheduled for:
 * "Mentions of HubSpot fell on ChatGPT (simulated), over all queries: 60.0% (31.3–83.2, n=10) →
 * 20.0% (5.7–51.0, n=10); p = 0.0012, q = 0.041, counted with its runs' spread ×1.8 against 7
 * runs · 2026-11-26 09:00 UTC" (an alert of the earlier rule has p and q alone: earlierRule says why);
 * "ChatGPT's model changed: a → b (no rise or fall is called across it) · …".
 */
export function alertSentence(alert: TrackerAlert, simulated: SimulatedFlags): string {
  const at = `${when(alert.at)} UTC`;
  const model = providerCatalogue[alert.provider].model;
  if (alert.kind === "model-changed") {
    const versions = alert.modelVersions ? `: ${visibleText(alert.modelVersions.before)} → ${visibleText(alert.modelVersions.after)}` : "";
    return `${model}'s model changed${versions} (no rise or fall is called across it) · ${at}`;
  }
  const what = METRIC_TEXT[alert.metric ?? "mention"](visibleText(alert.subject ?? "the brand"));
  const where = alert.query === undefined ? "over all queries" : `for "${visibleText(alert.query)}"`;
  const provider = `${model}${simulated[alert.provider] ? " (simulated)" : ""}`;
  return `${what} ${alert.kind} on ${provider}, ${where}: ${sideText(alert.before)} → ${sideText(alert.after)}; p ${probabilityText(alert.p)}, q ${probabilityText(alert.q)}${countedText(alert)} · ${at}`;
}

/** A rule-2 test's dispersion and baseline: ", counted with its runs' spread ×1.8 against 7 runs" ("" for the earlier rule's). */
function countedText(alert: TrackerAlert): string {
  if (alert.rule === 1) return "";
  const spread = alert.dispersion ? ` with its runs' spread ×${alert.dispersion.phi.toFixed(1)}` : "";
  const baseline = alert.baselineRuns ? ` against ${alert.baselineRuns.length} run${alert.baselineRuns.length === 1 ? "" : "s"}` : "";
  return spread || baseline ? `, counted${spread}${baseline}` : "";
}

/** EARLIER_RULE for a rise or a fall of rule 1; none for rule 2, nor for a model change (a fact, not a test). */
export function earlierRule(alert: TrackerAlert): string | null {
  return alert.rule === 1 && alert.kind !== "model-changed" ? EARLIER_RULE : null;
}

/** `aisc track alerts`: newest first, each alert's sentence and the links to its answers (`/search/{id}` on `server`). */
export function alertsText(alerts: readonly TrackerAlert[], simulated: SimulatedFlags, server: string): string {
  const blocks = alerts.map((alert) => {
    const links = alert.searchIds.map((id) => `${server}/search/${encodeURIComponent(id)}`);
    const note = earlierRule(alert);
    return [alertSentence(alert, simulated), ...(note ? [`  ${note}`] : []), ...(links.length ? [`  Answers: ${links.join(" ")}`] : [])].join("\n");
  });
  return [...simulatedNote(alerts, simulated), ...blocks].join("\n\n");
}

/** The MCP tool's answer: a line per alert, newest first, with the saved searches behind it (get_search opens them). */
export function alertsSummary(alerts: readonly TrackerAlert[], simulated: SimulatedFlags): string {
  const lines = alerts.map((alert) => {
    const note = earlierRule(alert);
    return `- ${alertSentence(alert, simulated)}${note ? ` · ${note}` : ""}${alert.searchIds.length ? ` (searches ${alert.searchIds.join(", ")})` : ""}`;
  });
  return [`${alerts.length} alert${alerts.length === 1 ? "" : "s"}, newest first:`, ...simulatedNote(alerts, simulated), ...lines].join("\n");
}

/** The providers the alerts are about, in catalogue order (for their simulated flags). */
export function alertProviders(alerts: readonly TrackerAlert[]): ProviderId[] {
  return providerIds.filter((id) => alerts.some((alert) => alert.provider === id));
}

/** "60.0% (31.3–83.2, n=10)". */
function sideText(side: AlertSide | undefined): string {
  return side ? `${side.rate.toFixed(1)}% (${intervalText(side.low, side.high, 1)}, n=${side.n})` : "—";
}

// Below this a p- or q-value is written as a bound: more digits would claim a precision the test does not have.
const SMALLEST = 0.0001;

/** "= 0.0012" (two significant digits), "< 0.0001", or "= —" when absent. */
export function probabilityText(value: number | undefined): string {
  if (value === undefined) return "= —";
  return value < SMALLEST ? `< ${SMALLEST}` : `= ${Number(value.toPrecision(2))}`;
}

function simulatedNote(alerts: readonly TrackerAlert[], simulated: SimulatedFlags): string[] {
  const line = simulatedLine(alertProviders(alerts).filter((id) => simulated[id]));
  return line ? [line] : [];
}
