import type { LensReport, Rate } from "#src/contract/lens.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { QuotaStatus } from "#src/contract/quota.ts";
import type { ApiStatus } from "#src/contract/status.ts";
import { rateLimitNote } from "#src/core/method.ts";
import type { ModelResult, SearchResult } from "#src/contract/search-result.ts";
import { byRank, returnedCounts } from "#src/core/aggregate.ts";
import { locationLabel } from "#src/core/location.ts";
import { formatCost } from "#src/core/cost.ts";
import { dedupeSources } from "#src/core/urls.ts";
import { visibleText } from "#src/core/display-text.ts";
import { fitTable, type FitColumn } from "./fit-table.ts";
import { dim, screenWidth, table } from "./output.ts";

/*
 * Results as people read them: a table per search on a terminal, and short summaries (also the
 * MCP tools' text). Everything is read from the result; what is counted, as the web counts it (src/core).
 * Text that comes from a person or a provider (a query, a name, a model, an error) is shown through
 * visibleText: on one line, an invisible character named, never acting on the terminal or the reader.
 */

const TOP = 5;
type Top = { name: string; percentage?: number };

/** The providers that took part in the search, in catalogue order. */
function providersOf(result: SearchResult): Array<[ProviderId, ModelResult]> {
  return providerIds.flatMap((id) => (result.models[id] ? [[id, result.models[id]] as [ProviderId, ModelResult]] : []));
}

/** A provider's top products: by frequency over several iterations, else in the answer's order. */
export function topProducts(result: SearchResult, id: ProviderId, count = TOP): Top[] {
  const stats = result.stats[id];
  if (result.iterationCount > 1 && stats)
    return stats.productFrequencies.slice(0, count).map(({ name, percentage }) => ({ name: visibleText(name), percentage }));
  return byRank(result.models[id]?.products ?? [])
    .slice(0, count)
    .map(({ name }) => ({ name: visibleText(name) }));
}

/**
 * Distinct companies and sources a provider returned, as the web's tabs list them (over every
 * iteration when there were several, ADR 028; then no cited count).
 */
function counts(result: SearchResult, id: ProviderId, model: ModelResult): { companies: number; sources: number; cited?: number } {
  const { companies, sources } = returnedCounts(result, id);
  if (result.iterationCount > 1) return { companies, sources };
  return { companies, sources, cited: dedupeSources(model.sources).filter((source) => source.cited).length };
}

const topLine = (top: Top, index: number) => (top.percentage === undefined ? `${index + 1}. ${top.name}` : `${top.name} ${top.percentage}%`);

/** One line about the search: its query, iterations, time, totals and cost. */
export function resultHeadline(result: SearchResult): string {
  const iterations = result.iterationCount === 1 ? "1 iteration" : `${result.iterationCount} iterations`;
  const from = result.options?.location ? ` · asked from ${visibleText(locationLabel(result.options.location))}` : "";
  const cost = result.cost ? ` · cost ${formatCost(result.cost.total)}` : "";
  return `"${visibleText(result.query)}"${from} · ${iterations} · ${(result.executionTimeMs / 1000).toFixed(1)} s · ${result.totalProducts} products, ${result.totalCompanies} companies, ${result.totalLinks} links${cost}`;
}

/** A provider's cost over every iteration, as the web's card says it. */
function providerCost(result: SearchResult, id: ProviderId): string {
  const cost = result.cost?.providers[id];
  return cost ? formatCost(cost) : "unknown";
}

/** The result as a table: a column per provider; its model, status, top products and counts. */
export function resultTable(result: SearchResult): string {
  const providers = providersOf(result);
  const cells = (cell: (id: ProviderId, model: ModelResult) => string) => providers.map(([id, model]) => cell(id, model));
  const rows: string[][] = [
    ["Model", ...cells((_, m) => `${visibleText(m.modelName) || "—"}${m.simulated ? "\n(simulated)" : ""}`)],
    ["Status", ...cells((id, m) => statusText(result, id, m))],
    ["Top products", ...cells((id) => topProducts(result, id).map(topLine).join("\n") || "—")],
    ["Companies", ...cells((id, m) => String(counts(result, id, m).companies))],
    ["Sources", ...cells((id, m) => sourcesText(counts(result, id, m)))],
    // Asked from somewhere: whether each provider's search took it (ADR 042).
    ...(result.options?.location ? [["Location", ...cells((_, m) => (m.location === "not supported" ? "not localised" : (m.location ?? "—")))]] : []),
    ["Cost", ...cells((id) => providerCost(result, id))],
  ];
  // The labels whole (and their padding); the providers share what is left of the screen, a border
  // each and two more, so that four fit 80 columns; below 12 a column wraps its cells too often to read.
  const label = Math.max(...rows.map(([name = ""]) => name.length)) + 2;
  const column = Math.max(12, Math.floor((screenWidth() - label - providers.length - 2) / Math.max(providers.length, 1)));
  const head = ["", ...providers.map(([id]) => providerCatalogue[id].model)];
  const lines = [resultHeadline(result), table(head, rows, { colWidths: [label, ...providers.map(() => column)] })];
  if (result.spendLimit) lines.push(result.spendLimit);
  const common = result.commonProducts.slice(0, TOP).map((item) => `${visibleText(item.name)} (${item.models.length})`);
  if (common.length) lines.push(`In common: ${common.join(", ")}`);
  return lines.join("\n");
}

/** A few lines: per provider its top products and counts, then what several have in common. */
export function resultSummary(result: SearchResult): string {
  const lines = [result.id ? `Search ${result.id}: ${resultHeadline(result)}` : resultHeadline(result)];
  if (result.spendLimit) lines.push(result.spendLimit);
  for (const [id, model] of providersOf(result)) {
    const name = `${providerCatalogue[id].model}${model.simulated ? " (simulated)" : ""}`;
    if (model.status !== "ok") {
      lines.push(`- ${name}: ${model.status}${model.error ? ` (${visibleText(model.error)})` : ""}`);
      continue;
    }
    const top = topProducts(result, id).map((t) => (t.percentage === undefined ? t.name : `${t.name} ${t.percentage}%`));
    const { companies, sources } = counts(result, id, model);
    const limited = rateLimitNote(model);
    const local = model.location === "not supported" ? "; not localised (its search takes no location)" : "";
    lines.push(
      `- ${name}: ${top.join(", ") || "no products"}; ${companies} companies; ${sources} sources; cost ${providerCost(result, id)}${local}${limited ? `; ${limited}` : ""}`,
    );
  }
  if (result.commonProducts.length)
    lines.push(
      `Named by several: ${result.commonProducts
        .slice(0, TOP)
        .map((item) => visibleText(item.name))
        .join(", ")}`,
    );
  return lines.join("\n");
}

/**
 * Each provider's connection as the server last checked it (ADR 040): a row with its mode, its
 * state in the web's words and its model, then a line per provider that cannot answer or whose
 * model shuts down soon (ADR 061), naming why and what to do. `aisc status` and the MCP status tool print it alike.
 */
export function providerStatusText(status: ApiStatus): string {
  const rows = providerIds.map((id) => {
    const { label, model } = status.providers[id];
    return [providerCatalogue[id].name, status.modes[id], label, visibleText(model)];
  });
  const reasons = providerIds.flatMap((id) => {
    const { failure, shutdowns, message } = status.providers[id];
    return failure || shutdowns?.length ? [`${providerCatalogue[id].model}: ${visibleText(message)}`] : [];
  });
  return [table(["Provider", "Mode", "Status", "Model"], rows), ...reasons].join("\n");
}

/** The brand lens: a row per provider. */
export function lensTable(lens: LensReport): string {
  const rows = lensRows(lens).map(({ id, view }) => [
    providerCatalogue[id].model,
    rateText(view.mentionRate),
    `${view.shareOfVoice.find((entry) => entry.isBrand)?.share ?? 0}%`,
    view.positions.map(({ position, count }) => `#${position}×${count}`).join(" ") || "—",
    String(view.notRecommended),
    rateText(view.domainCited),
  ]);
  const columns: FitColumn[] = [
    { head: "" },
    { head: "Mentioned" },
    { head: "Share\nof voice" },
    { head: "Positions", flexible: true },
    { head: "Not\nrecommended" },
    { head: "Own domain\ncited" },
  ];
  return [
    `Brand lens: ${visibleText(lens.brand.name)} · ${against(lens)}${lens.basis === "displayed" ? dim(" (displayed answers only)") : ""}`,
    fitTable(columns, rows),
  ].join("\n");
}

/** Who the share of voice is measured against, as the web's lens says it. */
function against(lens: LensReport): string {
  return lens.competitors.length ? `against ${lens.competitors.map((entry) => visibleText(entry.name)).join(", ")}` : "no competitors named";
}

/** The lens in a few lines; a provider whose answers were simulated says so (its figures are invented). */
export function lensSummary(lens: LensReport): string {
  return [
    `Brand lens for ${visibleText(lens.brand.name)} (${against(lens)}):`,
    ...lensRows(lens).map(
      ({ id, view }) =>
        `- ${providerCatalogue[id].model}${view.simulated ? " (simulated)" : ""}: mentioned in ${rateText(view.mentionRate)}, share of voice ${view.shareOfVoice.find((e) => e.isBrand)?.share ?? 0}%, own domain cited in ${rateText(view.domainCited)}`,
    ),
  ].join("\n");
}

/**
 * Which providers answered from their simulator (no API key on the server), as one line for a
 * summary: an assistant reading the figures must know they are invented. Empty when none did.
 */
export function simulatedLine(simulated: ProviderId[]): string {
  return simulated.length ? `Simulated (invented answers, not the live provider): ${simulated.map((id) => providerCatalogue[id].model).join(", ")}` : "";
}

function lensRows(lens: LensReport) {
  return providerIds.flatMap((id) => (lens.providers[id] ? [{ id, view: lens.providers[id] }] : []));
}

function statusText(result: SearchResult, id: ProviderId, model: ModelResult): string {
  if (model.status !== "ok") {
    // A card the search's time limit or a stopping server cut off says so, as the web's does.
    const status = model.stopped === "deadline" ? "timed out" : (model.stopped ?? model.status);
    return model.error ? `${status}: ${visibleText(model.error)}` : status;
  }
  const stats = result.stats[id];
  if (result.iterationCount <= 1 || !stats) return "ok";
  return `ok · ${stats.iterations}/${result.iterationCount}${stats.failedIterations ? ` (${stats.failedIterations} failed)` : ""}${stats.stability ? `\ntop-${stats.stability.k} overlap ${stats.stability.jaccard.toFixed(2)}` : ""}`;
}

function sourcesText({ sources, cited }: { sources: number; cited?: number }): string {
  return cited === undefined || cited === sources ? String(sources) : `${sources} (${cited} cited)`;
}

/** "40% (2/5)": a rate with the counts behind it. */
export function rateText(rate: Rate): string {
  return `${rate.percentage}% (${rate.count}/${rate.n})`;
}

/** "Pro" or "Free: 4 of 5 searches left today". */
export function quotaText(quota: QuotaStatus): string {
  return quota.isPro ? "Pro" : `Free: ${quota.remaining ?? 0} of ${quota.limit ?? 0} searches left today`;
}
