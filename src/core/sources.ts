import type { BrandEntry } from "#src/contract/lens.ts";
import type { RunRecord } from "#src/contract/search-result.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SourcesReport, SourceType } from "#src/contract/trend.ts";
import { isOwnHost, ownDomains } from "./lens.ts";
import { answerText, brandMatcher } from "./mentions.ts";
import { hostOf } from "./urls.ts";

/*
 * What kind of site an assistant cited: the brand's own, a competitor's, or by the
 * site's nature. A documented list of well-known hosts first (each with its subdomains), then
 * rules on the host's words; what neither places is "other". The list is short on purpose: it
 * names the sites assistants cite most for product questions, and a wrong guess is worse than
 * "other".
 */

/** Hosts by type (a host or any of its subdomains). */
export const KNOWN_SOURCES: Record<Exclude<SourceType, "own" | "competitor" | "other">, readonly string[]> = {
  ugc: [
    "reddit.com",
    "quora.com",
    "stackexchange.com",
    "stackoverflow.com",
    "youtube.com",
    "youtu.be",
    "tiktok.com",
    "medium.com",
    "substack.com",
    "x.com",
    "twitter.com",
    "facebook.com",
    "instagram.com",
    "linkedin.com",
    "news.ycombinator.com",
    "producthunt.com",
    "tripadvisor.com",
    "trustpilot.com",
  ],
  editorial: [
    "g2.com",
    "capterra.com",
    "trustradius.com",
    "getapp.com",
    "softwareadvice.com",
    "techradar.com",
    "pcmag.com",
    "zdnet.com",
    "cnet.com",
    "theverge.com",
    "wired.com",
    "engadget.com",
    "tomsguide.com",
    "tomshardware.com",
    "rtings.com",
    "consumerreports.org",
    "wirecutter.com",
    "nytimes.com",
    "forbes.com",
    "businessinsider.com",
    "theguardian.com",
    "bbc.com",
    "bbc.co.uk",
    "cnbc.com",
    "techcrunch.com",
    "runnersworld.com",
    "goodhousekeeping.com",
    "which.co.uk",
    // Buyer's guides and "best X software" roundups: assistants cite them for product questions more than any vendor's site.
    "tech.co",
    "business.com",
    "nerdwallet.com",
    "bankrate.com",
    "zapier.com",
    "techrepublic.com",
    "peerspot.com",
    // Analyst research and its peer reviews (Gartner Peer Insights): an assessment of products, not a reference work.
    "gartner.com",
    "forrester.com",
  ],
  reference: [
    "wikipedia.org",
    "wikimedia.org",
    "britannica.com",
    "investopedia.com",
    "merriam-webster.com",
    "dictionary.com",
    "github.com",
    "developer.mozilla.org",
  ],
  retail: [
    "amazon.com",
    "amazon.co.uk",
    "amazon.de",
    "amazon.fr",
    "ebay.com",
    "walmart.com",
    "target.com",
    "bestbuy.com",
    "etsy.com",
    "aliexpress.com",
    "costco.com",
    "homedepot.com",
    "rei.com",
    "zalando.com",
    "apps.apple.com",
    "play.google.com",
  ],
};

/** Words in a host that say what it is, when the list does not know it. */
const RULES: Array<{ type: Exclude<SourceType, "own" | "competitor" | "other">; test: RegExp }> = [
  { type: "ugc", test: /(^|\.)(forums?|community|communities|discuss|discussions?|answers|boards?)\./ },
  { type: "reference", test: /(^|\.)(wiki[a-z]*|docs?|help|support)\.|\.(edu|gov)$|\.(ac|gov)\.[a-z]{2}$/ },
  { type: "editorial", test: /(review|reviews|magazine|news|mag|guide|guides|blog)s?\b/ },
  { type: "retail", test: /(^|\.)(shop|store)\.|(shop|store|mart|outlet)\.[a-z.]+$/ },
];

/** The type of a cited host for a tracker's brand and competitors. */
export function sourceType(host: string, brand: BrandEntry, competitors: readonly BrandEntry[]): SourceType {
  if (isOwnHost(host, ownDomains(brand))) return "own";
  if (competitors.some((entry) => isOwnHost(host, ownDomains(entry)))) return "competitor";
  for (const [type, hosts] of Object.entries(KNOWN_SOURCES) as Array<[keyof typeof KNOWN_SOURCES, readonly string[]]>)
    if (isOwnHost(host, [...hosts])) return type;
  return RULES.find((rule) => rule.test.test(host))?.type ?? "other";
}

/** Per cited host over `runs`: the answers citing it, and of those, the ones naming the brand and the ones naming a competitor. */
export type SourceCounts = { domain: string; answers: number; withBrand: number; withCompetitor: number };

export function sourceCounts(runs: readonly RunRecord[], brand: BrandEntry, competitors: readonly BrandEntry[]): SourceCounts[] {
  const brandNamed = brandMatcher(brand);
  const rivals = competitors.map(brandMatcher);
  const counts = new Map<string, SourceCounts>();
  for (const run of runs) {
    const text = answerText(run.text);
    const answer = { ...run, text };
    const namesBrand = brandNamed.inAnswer(answer);
    const namesRival = rivals.some((matcher) => matcher.inAnswer(answer));
    const hosts = new Set(run.sources.map(hostOf).filter((host): host is string => host !== null));
    for (const domain of hosts) {
      const entry = counts.get(domain) ?? { domain, answers: 0, withBrand: 0, withCompetitor: 0 };
      entry.answers++;
      if (namesBrand) entry.withBrand++;
      if (namesRival) entry.withCompetitor++;
      counts.set(domain, entry);
    }
  }
  return [...counts.values()];
}

/** One run's and provider's counts of a cited domain, as the rollups keep them. */
export type DomainCounts = Pick<SourceCounts, "domain" | "withBrand" | "withCompetitor"> & { provider: ProviderId };

/**
 * The citation gap over `rows`: the sites cited in more answers naming a competitor than answers
 * naming the brand (an answer naming both counts on both sides), the widest lead first. Sites never
 * cited beside the brand alone would leave a brand named in most answers nearly nothing to read.
 * The brand's and its competitors' own sites are no gap: they are not sites to win.
 */
export function citationGap(rows: readonly DomainCounts[], typeOf: (domain: string) => SourceType): SourcesReport["gap"] {
  const totals = new Map<string, { competitorAnswers: number; brandAnswers: number; providers: Set<ProviderId> }>();
  for (const row of rows) {
    const total = totals.get(row.domain) ?? { competitorAnswers: 0, brandAnswers: 0, providers: new Set() };
    total.competitorAnswers += row.withCompetitor;
    total.brandAnswers += row.withBrand;
    if (row.withCompetitor > 0) total.providers.add(row.provider);
    totals.set(row.domain, total);
  }
  return [...totals]
    .filter(([domain, total]) => total.competitorAnswers > total.brandAnswers && typeOf(domain) !== "competitor" && typeOf(domain) !== "own")
    .map(([domain, total]) => ({
      domain,
      type: typeOf(domain),
      competitorAnswers: total.competitorAnswers,
      brandAnswers: total.brandAnswers,
      providers: providerIds.filter((id) => total.providers.has(id)),
    }))
    .sort(
      (a, b) =>
        b.competitorAnswers - b.brandAnswers - (a.competitorAnswers - a.brandAnswers) ||
        b.competitorAnswers - a.competitorAnswers ||
        a.domain.localeCompare(b.domain),
    );
}
