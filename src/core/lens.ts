import type { BrandEntry, BrandLensSettings, LensReport, ProviderLens } from "#src/contract/lens.ts";
import { providerIds } from "#src/contract/providers.ts";
import { modelOf, type RunRecord, type SearchResult } from "#src/contract/search-result.ts";
import { answerText, brandMatcher, type BrandMatcher } from "./mentions.ts";
import { nameKey } from "./names.ts";
import { displayedRuns, keptRuns } from "./runs.ts";
import { percentOf, rate } from "./stats.ts";
import { hostOf } from "./urls.ts";

/** The brand a lens looks at and the competitors its share of voice is measured against. */
export type LensSettings = { brand: BrandEntry; competitors: BrandEntry[] };

/** A brand named on one result instead of the saved one: the web's "Try another brand", the CLI's --brand, MCP's brand_lens. */
export type LensOverride = { brand: string; aliases?: string[]; domains?: string[]; competitors?: string[] };

/**
 * What a lens looks at: the saved brand and competitors, or an override measured against the
 * same market. A name that is one of the saved entries (its name or another name, in any letter
 * case) brings that entry's other names and own domains; the competitors are the ones named,
 * else every other saved entry, the saved brand among them. So naming the saved brand gives
 * exactly the saved lens, wherever it is asked from. Null when no brand is named.
 */
export function lensSettings(saved: BrandLensSettings, override?: LensOverride): LensSettings | null {
  if (!override) return saved.brand ? { brand: saved.brand, competitors: saved.competitors } : null;
  const known = saved.brand ? [saved.brand, ...saved.competitors] : saved.competitors;
  const entryOf = (name: string): BrandEntry =>
    known.find((entry) => [entry.name, ...entry.aliases].some((other) => nameKey(other) === nameKey(name))) ?? { name, aliases: [], domains: [] };
  const base = entryOf(override.brand);
  const brand = { ...base, aliases: unique([...base.aliases, ...(override.aliases ?? [])]), domains: unique([...base.domains, ...(override.domains ?? [])]) };
  const named = override.competitors?.length ? override.competitors.map(entryOf) : known;
  return { brand, competitors: [...new Set(named)].filter((entry) => entry !== base && nameKey(entry.name) !== nameKey(brand.name)) };
}

/**
 * How a brand fares in one search, per provider, over its completed iterations (or, in a result
 * that kept none, over its displayed answer): how often an answer names it, its share of the
 * mentions among its competitors, where it stands among the recommended products, and how often
 * its own site is among the sources. Providers without a completed answer are left out.
 */
export function brandLens(result: SearchResult, settings: LensSettings): LensReport {
  const basis = result.runs ? "iterations" : "displayed";
  const named = [settings.brand, ...settings.competitors].map((entry, index) => ({ entry, matcher: brandMatcher(entry), isBrand: index === 0 }));
  const domains = ownDomains(settings.brand);
  const providers: LensReport["providers"] = {};
  for (const id of providerIds) {
    const runs = keptRuns(result, id) ?? displayedRuns(result, id);
    if (runs.length > 0) providers[id] = { simulated: modelOf(result, id).simulated, ...providerLens(runs, named, domains) };
  }
  return { brand: settings.brand, competitors: settings.competitors, basis, providers };
}

type Named = { entry: BrandEntry; matcher: BrandMatcher; isBrand: boolean };

function providerLens(runs: RunRecord[], named: Named[], domains: string[]): Omit<ProviderLens, "simulated"> {
  const n = runs.length;
  const answers = runs.map((run) => ({ ...run, text: answerText(run.text) }));
  const brand = named[0]?.matcher;
  const mentions = named.map(({ entry, matcher, isBrand }) => ({
    name: entry.name,
    mentions: answers.filter((answer) => matcher.inAnswer(answer)).length,
    isBrand,
  }));
  const total = mentions.reduce((sum, entry) => sum + entry.mentions, 0);

  const positions = new Map<number, number>();
  let notRecommended = 0;
  for (const run of runs) {
    const index = brand ? run.products.findIndex((product) => brand.inName(product)) : -1;
    if (index === -1) notRecommended++;
    else positions.set(index + 1, (positions.get(index + 1) ?? 0) + 1);
  }

  return {
    mentionRate: rate(mentions[0]?.mentions ?? 0, n),
    shareOfVoice: mentions.map((entry) => ({ ...entry, share: percentOf(entry.mentions, total) })),
    positions: [...positions].sort(([a], [b]) => a - b).map(([position, count]) => ({ position, count })),
    notRecommended,
    domainCited: rate(runs.filter((run) => run.sources.some((url) => isOwnHost(hostOf(url), domains))).length, n),
  };
}

function unique(values: string[]): string[] {
  return values.filter((value, index) => values.findIndex((other) => nameKey(other) === nameKey(value)) === index);
}

/** A brand's own domains as the host reads them: lower case, without "www." (hostOf drops it too). */
export function ownDomains(brand: BrandEntry): string[] {
  return brand.domains
    .map((domain) =>
      domain
        .trim()
        .toLowerCase()
        .replace(/^www\./, "")
        .replace(/\.$/, ""),
    )
    .filter(Boolean);
}

/** The domain itself or a subdomain of it: "shop.acme.com" is Acme's, "notacme.com" is not. */
export function isOwnHost(host: string | null, domains: string[]): boolean {
  return host !== null && domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
