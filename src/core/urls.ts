import type { Source } from "#src/contract/search-result.ts";

/**
 * The form a URL is compared (and shown in cross-model views) under. Canonical form:
 * `scheme://host[:port]/path?query` with scheme and host lower-cased, default ports dropped,
 * tracking parameters and the fragment dropped, and trailing slashes removed — the root too,
 * so `https://A.com/` becomes `https://a.com`. Other parameters keep their order and spelling.
 * Non-http(s) and unparsable URLs come back trimmed, otherwise unchanged.
 */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim();
  const parsed = parseHttpUrl(trimmed);
  if (!parsed) return trimmed;
  const auth = parsed.username ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ""}@` : "";
  const path = parsed.pathname.replace(/\/+$/, "");
  return `${parsed.protocol}//${auth}${parsed.host}${path}${keptQuery(parsed.search)}`;
}

/**
 * Gemini cites `…/grounding-api-redirect/<token>` URLs rather than the pages themselves; the
 * server resolves them, and one it could not resolve keeps this form.
 */
export function isGroundingRedirect(url: string): boolean {
  return url.includes("/grounding-api-redirect/");
}

/** Host name without a leading `www.`; null when the UI must show the raw text instead (spec §2). */
export function hostOf(url: string): string | null {
  const parsed = parseHttpUrl(url.trim());
  if (!parsed || parsed.hostname === "") return null;
  return parsed.hostname.replace(/^www\./, "");
}

/**
 * What a source is called wherever it is listed — cards, tables, compare, frequency lists, the
 * CLI — so that two pages of one site are told apart: the host without "www." and a short path
 * ("notion.com/product/ai", "g2.com/categories/…/reviews"); only the host for a site's root.
 * With `preferTitle` (lists with room for it, e.g. the full response), the page's title when it
 * has one. An unresolved Gemini redirect is its title if any (its path is an opaque token), and
 * anything that is not a valid http(s) URL is its raw text (spec §2), never a link.
 */
export function sourceLabel(source: { url: string; title?: string | undefined }, { preferTitle = false } = {}): string {
  const title = source.title?.trim();
  if (title && (preferTitle || isGroundingRedirect(source.url))) return title;
  const parsed = parseHttpUrl(source.url.trim());
  if (!parsed || parsed.hostname === "") return source.url.trim();
  const host = parsed.hostname.replace(/^www\./, "");
  return isGroundingRedirect(source.url) ? host : `${host}${shortPath(parsed)}`;
}

/**
 * Links per host for "All Sources (N links from M domains)" and "Top Domains": every URL given
 * counts (pass deduplicated URLs to count distinct links), invalid ones are left out.
 * Sorted by count descending, then domain ascending.
 */
export function domainCounts(urls: string[]): { domain: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const domain = hostOf(url);
    if (domain !== null) counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  return [...counts]
    .map(([domain, count]) => ({ domain, count }))
    .sort((a, b) => b.count - a.count || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/**
 * One entry per normalised URL, in first-seen order. The first occurrence's url and title win;
 * a later duplicate only fills a missing title. Cited if any duplicate was cited.
 */
export function dedupeSources(sources: Source[]): Source[] {
  const byKey = new Map<string, Source>();
  for (const source of sources) {
    const key = normalizeUrl(source.url);
    const title = source.title?.trim() || undefined;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { url: source.url.trim(), ...(title ? { title } : {}), cited: source.cited });
      continue;
    }
    if (!seen.title && title) seen.title = title;
    seen.cited ||= source.cited;
  }
  return [...byKey.values()];
}

/** Query parameters that only identify the click, never the page. */
const TRACKING_PARAMS = new Set(["gclid", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "mc_cid", "mc_eid", "ref_src", "igshid", "srsltid", "yclid"]);

function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("utm_") || TRACKING_PARAMS.has(lower);
}

// Filters the raw query string rather than URLSearchParams, which would re-encode the kept values.
function keptQuery(search: string): string {
  if (search.length <= 1) return "";
  const kept = search
    .slice(1)
    .split("&")
    .filter((pair) => {
      if (pair === "") return false;
      const rawName = pair.split("=", 1)[0] ?? "";
      return !isTrackingParam(safeDecode(rawName));
    });
  return kept.length ? `?${kept.join("&")}` : "";
}

const LABEL_SEGMENT = 32;
const LABEL_QUERY = 24;

// Two segments whole, else the first and the last around an ellipsis: the last names the page.
function shortPath(url: URL): string {
  const segments = url.pathname
    .split("/")
    .filter(Boolean)
    .map((segment) => clip(safeDecode(segment, false), LABEL_SEGMENT));
  const shown = segments.length <= 2 ? segments : [segments[0], "…", segments.at(-1)];
  const path = shown.length ? `/${shown.join("/")}` : "";
  const query = keptQuery(url.search);
  return query ? `${path}${clip(safeDecode(query), LABEL_QUERY)}` : path;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// In a query "+" is a space; in a path it is itself.
function safeDecode(text: string, plusIsSpace = true): string {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, " ") : text);
  } catch {
    return text;
  }
}

// URL lower-cases scheme and host and drops default ports for us.
function parseHttpUrl(text: string): URL | null {
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const parsed = new URL(text);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
  } catch {
    return null;
  }
}
