import type { BrandEntry, LensReport, ProviderLens } from "#src/contract/lens.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { RunRecord, SearchResult } from "#src/contract/search.ts";
import { answerText, brandMatcher, type BrandMatcher } from "./mentions.ts";
import { displayedRuns, keptRuns } from "./runs.ts";
import { percentOf, rate } from "./stats.ts";
import { hostOf } from "./urls.ts";

/**
 * How a brand fares in one search, per provider, over its completed iterations (or, in a result
 * that kept none, over its displayed answer): how often an answer names it, its share of the
 * mentions among its competitors, where it stands among the recommended products, and how often
 * its own site is among the sources. Providers without a completed answer are left out.
 */
export function brandLens(result: SearchResult, settings: { brand: BrandEntry; competitors: BrandEntry[] }): LensReport {
  const basis = result.runs ? "iterations" : "displayed";
  const named = [settings.brand, ...settings.competitors].map((entry, index) => ({ entry, matcher: brandMatcher(entry), isBrand: index === 0 }));
  const domains = ownDomains(settings.brand);
  const providers: LensReport["providers"] = {};
  for (const id of providerIds) {
    const runs = keptRuns(result, id) ?? displayedRuns(result, id);
    if (runs.length > 0) providers[id] = providerLens(runs, named, domains);
  }
  return { brand: settings.brand, competitors: settings.competitors, basis, providers };
}

type Named = { entry: BrandEntry; matcher: BrandMatcher; isBrand: boolean };

function providerLens(runs: RunRecord[], named: Named[], domains: string[]): ProviderLens {
  const n = runs.length;
  const answers = runs.map((run) => ({ ...run, text: answerText(run.text) }));
  const brand = named[0]?.matcher;
  const mentions = named.map(({ entry, matcher, isBrand }) => ({ name: entry.name, mentions: answers.filter((answer) => matcher.inAnswer(answer)).length, isBrand }));
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

// As the host reads them: lower case, without "www." (hostOf drops it too).
function ownDomains(brand: BrandEntry): string[] {
  return brand.domains.map((domain) => domain.trim().toLowerCase().replace(/^www\./, "").replace(/\.$/, "")).filter(Boolean);
}

/** The domain itself or a subdomain of it: "shop.acme.com" is Acme's, "notacme.com" is not. */
function isOwnHost(host: string | null, domains: string[]): boolean {
  return host !== null && domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
