import type { CompareReport, ComparedItem, ComparedSearch } from "#src/contract/compare.ts";
import type { Rate } from "#src/contract/lens.ts";
import { isActive } from "#src/contract/batch-status.ts";
import type { BatchItem } from "#src/contract/variants.ts";
import { MAX_ITERATIONS } from "#src/contract/constants.ts";
import { compareNames, nameKey } from "#src/core/names.ts";
import { intervalText } from "#src/core/stats.ts";
import { formatPercent } from "#web/lib/format.ts";

/*
 * Pure helpers of the Pro workbench pages (variants, compare, brand lens): what they show as
 * text, and how they read their URLs. No React, no I/O.
 */

/** "60% (23–88%)": a share with its 95% interval, each rounded to a whole percent. */
export function formatRate(rate: Pick<Rate, "percentage" | "low" | "high">): string {
  return `${formatPercent(rate.percentage)} (${intervalText(rate.low, rate.high)}%)`;
}

/** "3 of 5 answers · 60% (23–88%)"; "no answers" when n is 0. */
export function formatCountRate(rate: Rate, unit = "answer"): string {
  if (!(rate.n > 0)) return `no ${unit}s`;
  return `${rate.count} of ${rate.n} ${rate.n === 1 ? unit : `${unit}s`} · ${formatRate(rate)}`;
}

/** "p = 0.012", "p < 0.001", "p = 1". */
export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) return "p unknown";
  if (p < 0.001) return "p < 0.001";
  return `p = ${Number(p.toPrecision(2))}`;
}

/** 1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** The iterations of a variants link: a whole number from 1 to 100, else 1. */
export function parseIterations(raw: string | null | undefined): number {
  const value = Number(raw?.trim());
  return Number.isInteger(value) && value >= 1 && value <= MAX_ITERATIONS ? value : 1;
}

/** "Acme, ACME Corp ,, acme" → ["Acme", "ACME Corp"]: trimmed, empty ones and repeats (any case) left out. */
export function splitList(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => {
      const key = nameKey(part);
      if (part === "" || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Spec §2: the dashboard with the query in its form, and the latest saved result of it. */
export function dashboardHref(query: string): string {
  return `/?query=${encodeURIComponent(query)}`;
}

/** Spec §2: `/compare?compareQuery={original}&compareVariants={q}…`. */
export function compareHref(original: string, variants: readonly string[]): string {
  const params = new URLSearchParams({ compareQuery: original });
  for (const variant of variants) params.append("compareVariants", variant);
  return `/compare?${params.toString().replace(/\+/g, "%20")}`;
}

/** Completed of total (spec §2 progress bar), and whether any item is still queued or running. */
export function batchProgress(items: readonly Pick<BatchItem, "status">[]): { completed: number; total: number; active: boolean } {
  return { completed: items.filter((item) => item.status === "completed").length, total: items.length, active: items.some((item) => isActive(item.status)) };
}

/** The search the others are compared with (the original, else the first found), and the others. */
export function baseAndOthers(searches: readonly ComparedSearch[]): { base: ComparedSearch | undefined; others: ComparedSearch[] } {
  const base = searches.find((search) => search.role === "original") ?? searches[0];
  return { base, others: searches.filter((search) => search !== base) };
}

/**
 * The pooled iterations (n) behind one search's frequencies, read from any item that has one;
 * undefined for a search of one iteration.
 */
export function pooledRuns(items: readonly ComparedItem[], searchId: string): number | undefined {
  for (const item of items) {
    const n = item.in[searchId]?.frequency?.n;
    if (n !== undefined) return n;
  }
  return undefined;
}

/** The items returned in either of two searches, in the report's order. */
export function itemsOfPair(items: readonly ComparedItem[], a: string, b: string | undefined): ComparedItem[] {
  return items.filter((item) => item.in[a] || (b !== undefined && item.in[b]));
}

export type FanOutQuery = { query: string; original: number; variant: number };

/**
 * The web searches the models issued for two searches (CompareReport.fanOut), split into those
 * only the first issued, those both issued and those only the second did, matched on the text in
 * any letter case; each with how many iterations issued it in either search.
 */
export function fanOutDifference(
  fanOut: CompareReport["fanOut"],
  original: string,
  variant: string,
): { onlyOriginal: FanOutQuery[]; both: FanOutQuery[]; onlyVariant: FanOutQuery[] } {
  const merged = new Map<string, FanOutQuery>();
  const add = (side: "original" | "variant", list: CompareReport["fanOut"][string] | undefined) => {
    for (const { query, count } of list ?? []) {
      const key = nameKey(query);
      if (!key) continue;
      const entry = merged.get(key) ?? { query: query.trim(), original: 0, variant: 0 };
      entry[side] += count;
      merged.set(key, entry);
    }
  };
  add("original", fanOut[original]);
  add("variant", fanOut[variant]);
  const all = [...merged.values()];
  const byCount = (a: FanOutQuery, b: FanOutQuery) => b.original + b.variant - (a.original + a.variant) || compareNames(a.query, b.query);
  return {
    onlyOriginal: all.filter((q) => q.original > 0 && q.variant === 0).sort(byCount),
    both: all.filter((q) => q.original > 0 && q.variant > 0).sort(byCount),
    onlyVariant: all.filter((q) => q.original === 0 && q.variant > 0).sort(byCount),
  };
}

/** The message of a failed call for a toast: the server's `{ message }`, else the error's own. */
export function errorText(error: unknown): string {
  if (error && typeof error === "object" && "serverMessage" in error && typeof error.serverMessage === "string") return error.serverMessage;
  return error instanceof Error && error.message ? error.message : "An unknown error occurred";
}

/** Spec §5/§8 toasts of the workbench pages' doors. */
export const workbenchMessages = {
  missingQuery: {
    variant: "destructive",
    title: "Missing query parameter",
    description: "Open Query Variants from a search result's Generate Variants button.",
  },
  noQueries: {
    variant: "destructive",
    title: "No queries specified",
    description: "Open Compare from the variants page, with the queries to compare in its address.",
  },
} as const;
