import type { TrackerAlert, TrendMetric } from "#src/contract/trend.ts";
import { visibleText } from "#src/core/display-text.ts";
import { intervalText } from "#src/core/stats.ts";
import { formatPercent } from "#web/lib/format.ts";

/*
 * Alerts in words, and the metrics' names they and the charts say alike. Apart from the trend's
 * helpers (./trend.ts) because the header's bell says them on every page, and a first load should
 * not carry the charts' code.
 */

export const metricLabels: Record<TrendMetric, string> = {
  mention: "Mentions",
  sov: "Share of voice",
  citation: "Citations",
  position: "Position",
};

/**
 * An alert in words: "Mentions of HubSpot fell on ChatGPT / OpenAI: 60% (31–83%, n=10) → 20% (6–51%, n=10)",
 * or "ChatGPT / OpenAI's model changed: x → y".
 */
export function alertText(alert: TrackerAlert, providerName: string): string {
  if (alert.kind === "model-changed")
    return `${providerName}'s model changed: ${visibleText(alert.modelVersions?.before ?? "unknown")} → ${visibleText(alert.modelVersions?.after ?? "unknown")}`;
  const side = (s: TrackerAlert["before"]) => (s ? `${formatPercent(s.rate)} (${intervalText(s.low, s.high)}%, n=${s.n})` : "—");
  const what = metricLabels[alert.metric ?? "mention"];
  const scope = alert.query ? ` for “${visibleText(alert.query)}”` : "";
  return `${what} of ${visibleText(alert.subject ?? "the brand")} ${alert.kind} on ${providerName}${scope}: ${side(alert.before)} → ${side(alert.after)}`;
}

/** Said under a rise or a fall decided by the earlier rule (ADR 045), whose record is kept. */
export const EARLIER_RULE_NOTE = "Decided by the earlier rule (before Dec 2026), which took a run's answers as independent: it may be noise.";

/** The same, where there is room for a few words (the header's bell). */
export const EARLIER_RULE_SHORT = "By the earlier rule, which took a run's answers as independent: it may be noise.";

/** The muted line an alert needs about its rule: a rise or a fall of rule 1; none for rule 2 or a model change (a fact, not a test). */
export function alertRuleNote(alert: TrackerAlert): string | null {
  return alert.rule === 1 && alert.kind !== "model-changed" ? EARLIER_RULE_NOTE : null;
}

/** The tracker page's alerts, while there are none: when one appears. */
export const NO_TRACKER_ALERTS =
  "No alerts. One appears when a rate moves beyond how much this tracker's runs vary from run to run (its latest runs against up to 28 before them), or when a provider's model or search tool changes.";

/** The header's bell, while no tracker has an alert. */
export const NO_INBOX_ALERTS = "No alerts yet. One appears when a tracker's rate moves beyond how much its runs vary from run to run.";
