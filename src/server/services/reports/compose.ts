import { providerCatalogue } from "#src/contract/providers.ts";
import type { ProviderSummary, SummaryFigures, TrackerSummary } from "#src/contract/summary.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { visibleText } from "#src/core/display-text.ts";
import { escapeHtml } from "../mail/outbox.ts";
import { alertLine } from "../trackers/emails.ts";

/** One earlier period's headline figures, for the small chart: its span and the brand's rate across providers. */
export type ReportHistoryRow = { from: string; to: string; figures: SummaryFigures };

export type ReportContent = {
  trackerName: string;
  cadence: "weekly" | "monthly";
  summary: TrackerSummary;
  /** The period's alerts, newest first. */
  alerts: readonly TrackerAlert[];
  /** The last periods of the cadence's length, oldest first, the current one last. */
  history: readonly ReportHistoryRow[];
  /** Where to read it all: the live page (the owner) or the report's share link (recipients); or why recipients have none. */
  link: ReportLink;
};

/** A link to read the report at, or why there is none: the owner revoked it, or it could not be made (`limit`: the owner's live share links are at the most). */
export type ReportLink = { url: string; words: string } | { missing: "revoked" | "limit" | "failed" };

/** Why a report has no link, in words. */
const MISSING: Record<Extract<ReportLink, { missing: unknown }>["missing"], string> = {
  revoked: "The owner revoked this report's link: ask them for another.",
  limit: "No link to the live report this time: its owner has the most live share links an account can have.",
  failed: "No link to the live report this time: it could not be made.",
};

/**
 * A tracker's report as one e-mail, text and HTML alike: the headline sentence in the Subject and
 * first, then per provider the brand's rate ± (half its interval), rank, share of voice and change,
 * the period's alerts in words, a bar per period of the brand's rate (HTML bars, no image: the
 * server renders no chart without a browser), and the link. Users' words go through `visibleText`.
 */
export function composeReport(content: ReportContent): { subject: string; text: string; html: string } {
  const name = visibleText(content.trackerName);
  const sentence = visibleText(content.summary.sentence);
  const periodName = content.cadence === "weekly" ? "this week" : "the last 30 days";
  const rows = content.summary.providers.map((provider) => ({ provider: providerCatalogue[provider.provider].name, ...cells(provider) }));
  const alerts = content.alerts.map((alert) => alertLine(name, alert));
  const bars = content.history.map((row) => ({ span: spanWords(row.from, row.to), rate: row.figures.rate, cells: cells(row.figures) }));

  const text = [
    sentence,
    "",
    `Per provider, ${periodName}:`,
    ...(rows.length === 0
      ? ["  No answers in this period."]
      : rows.map((row) => `  ${row.provider}: ${row.rate}, ${row.rank}, share of voice ${row.sov}; ${row.change}.`)),
    "",
    alerts.length === 0 ? `Alerts: none ${periodName}.` : `Alerts ${periodName} (${alerts.length}):`,
    ...alerts.map((line) => `  - ${line}`),
    "",
    "The brand's mention rate, period by period:",
    ...bars.map((bar) => `  ${bar.span}: ${bar.cells.rate}`),
    "",
    "url" in content.link ? `${content.link.words}: ${content.link.url}` : MISSING[content.link.missing],
  ].join("\n");

  const th = 'style="text-align:left;padding:4px 8px;border-bottom:1px solid #ddd"';
  const td = 'style="padding:4px 8px;border-bottom:1px solid #eee"';
  const html = [
    `<div style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:14px;color:#111;max-width:640px">`,
    `<p style="color:#666;margin:0">${escapeHtml(name)}</p>`,
    `<h1 style="font-size:18px;margin:4px 0 16px">${escapeHtml(sentence)}</h1>`,
    `<h2 style="font-size:15px">Per provider, ${periodName}</h2>`,
    rows.length === 0
      ? "<p>No answers in this period.</p>"
      : `<table style="border-collapse:collapse"><tr><th ${th}>Provider</th><th ${th}>Mention rate</th><th ${th}>Rank</th><th ${th}>Share of voice</th><th ${th}>Change</th></tr>${rows
          .map(
            (row) =>
              `<tr><td ${td}>${escapeHtml(row.provider)}</td><td ${td}>${escapeHtml(row.rate)}</td><td ${td}>${escapeHtml(row.rank)}</td><td ${td}>${escapeHtml(row.sov)}</td><td ${td}>${escapeHtml(row.change)}</td></tr>`,
          )
          .join("")}</table>`,
    `<h2 style="font-size:15px">Alerts</h2>`,
    alerts.length === 0 ? `<p>None ${periodName}.</p>` : `<ul>${alerts.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`,
    `<h2 style="font-size:15px">The brand's mention rate, period by period</h2>`,
    `<table style="border-collapse:collapse">${bars
      .map(
        (bar) =>
          `<tr><td ${td}>${escapeHtml(bar.span)}</td><td style="padding:4px 8px;width:200px"><div style="background:#2563eb;height:10px;width:${Math.round(
            2 * (bar.rate ?? 0),
          )}px"></div></td><td ${td}>${escapeHtml(bar.cells.rate)}</td></tr>`,
      )
      .join("")}</table>`,
    "url" in content.link
      ? `<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.words)}</a></p>`
      : `<p>${escapeHtml(MISSING[content.link.missing])}</p>`,
    "</div>",
  ].join("\n");

  return { subject: `${name}: ${sentence}`, text, html };
}

/** A row's figures in words: "64 % (±6)", "#2 of 4", "38 %", "up from 52 %". */
function cells(figures: SummaryFigures | ProviderSummary): { rate: string; rank: string; sov: string; change: string } {
  const rate =
    figures.rate === null || figures.low === null || figures.high === null
      ? "no answers"
      : `${Math.round(figures.rate)} % (±${Math.round((figures.high - figures.low) / 2)})`;
  const rank = figures.rank === null ? "no rank" : `#${figures.rank} of ${figures.of}`;
  const sov = figures.sov === null ? "none" : `${Math.round(figures.sov)} %`;
  const { change } = figures;
  const said =
    change.from === null
      ? "nothing earlier to compare"
      : change.verdict === "no clear change"
        ? "no clear change"
        : `${change.verdict === "rose" ? "up" : "down"} from ${Math.round(change.from)} %`;
  return { rate, rank, sov, change: said };
}

/** "1 Dec – 7 Dec 2026" (UTC days; `to` is exclusive). */
function spanWords(from: string, to: string): string {
  const day = (at: Date) => at.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  const end = new Date(Date.parse(to) - 1);
  return `${day(new Date(from))} – ${day(end)} ${end.getUTCFullYear()}`;
}
