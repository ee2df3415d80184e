import { describe, expect, test } from "bun:test";
import type { RunRecord } from "#src/contract/search-result.ts";
import { citationGap, sourceCounts, sourceType } from "#src/core/sources.ts";

/* What kind of site an assistant cited, and which sites cite competitors but never the brand. */

const brand = { name: "Acme", aliases: [], domains: ["acme.com"] };
const globex = { name: "Globex", aliases: [], domains: ["globex.io"] };

describe("a cited domain's type", () => {
  test("the brand's own and a competitor's first, then the documented list (subdomains too), then the host's words, else other", () => {
    const type = (host: string) => sourceType(host, brand, [globex]);
    expect(type("acme.com")).toBe("own");
    expect(type("shop.acme.com")).toBe("own");
    expect(type("globex.io")).toBe("competitor");
    expect(type("old.reddit.com")).toBe("ugc");
    expect(type("youtube.com")).toBe("ugc");
    expect(type("forum.example.org")).toBe("ugc");
    expect(type("g2.com")).toBe("editorial");
    expect(type("bestcrmreviews.net")).toBe("editorial");
    expect(type("en.wikipedia.org")).toBe("reference");
    expect(type("docs.example.com")).toBe("reference");
    expect(type("cs.stanford.edu")).toBe("reference");
    expect(type("amazon.com")).toBe("retail");
    expect(type("shop.example.com")).toBe("retail");
    expect(type("example.com")).toBe("other");
    expect(type("zapier.com")).toBe("editorial");
  });

  test("the editorial and review sites assistants cite most for software and finance questions are typed, not other", () => {
    const type = (host: string) => sourceType(host, brand, [globex]);
    for (const host of [
      "tech.co",
      "business.com",
      "www.nerdwallet.com",
      "gartner.com",
      "zapier.com",
      "capterra.com",
      "trustradius.com",
      "getapp.com",
      "softwareadvice.com",
    ])
      expect([host, type(host)]).toEqual([host, "editorial"]);
    for (const host of ["www.forbes.com", "pcmag.com", "techradar.com", "techrepublic.com", "bankrate.com", "peerspot.com", "forrester.com"])
      expect([host, type(host)]).toEqual([host, "editorial"]);
    expect(type("investopedia.com")).toBe("reference");
    // A site of a competitor stays the competitor's, whatever the list says of it.
    expect(sourceType("zapier.com", brand, [{ name: "Zapier", aliases: [], domains: ["zapier.com"] }])).toBe("competitor");
    // A host that merely ends in a listed one's letters is not it.
    expect(type("fintech.co")).toBe("other");
    expect(type("notacme.com")).toBe("other");
  });
});

describe("per cited domain", () => {
  const answer = (text: string, sources: string[]): RunRecord => ({ status: "ok", text, products: [], companies: [], sources, searchQueries: [] });

  test("answers citing it, and of those the ones naming the brand and the ones naming a competitor; a domain counts once an answer", () => {
    const counts = sourceCounts(
      [
        answer("Globex leads.", ["https://g2.com/a", "https://g2.com/b", "https://reddit.com/r/crm"]),
        answer("Acme and Globex.", ["https://reddit.com/r/crm"]),
        answer("I couldn't find Acme. Globex is fine.", ["https://capterra.com/x"]),
      ],
      brand,
      [globex],
    );
    expect(counts.toSorted((a, b) => a.domain.localeCompare(b.domain))).toEqual([
      { domain: "capterra.com", answers: 1, withBrand: 0, withCompetitor: 1 },
      { domain: "g2.com", answers: 1, withBrand: 0, withCompetitor: 1 },
      { domain: "reddit.com", answers: 2, withBrand: 1, withCompetitor: 2 },
    ]);
  });
});

describe("the citation gap", () => {
  const type = (domain: string) => sourceType(domain, brand, [globex]);

  test("sites cited beside a competitor more often than beside the brand, summed over runs and providers, the widest lead first", () => {
    const gap = citationGap(
      [
        // g2.com: competitor 3 + 2 = 5, brand 2 + 1 = 3 → a lead of 2, on both providers.
        { domain: "g2.com", provider: "openai", withBrand: 2, withCompetitor: 3 },
        { domain: "g2.com", provider: "gemini", withBrand: 1, withCompetitor: 2 },
        // reddit.com: competitor 4, brand 0 → a lead of 4 (what the old gap alone listed).
        { domain: "reddit.com", provider: "anthropic", withBrand: 0, withCompetitor: 4 },
        // tech.co: competitor 4, brand 2 → a lead of 2, fewer answers than g2.com's 5: after it.
        { domain: "tech.co", provider: "openai", withBrand: 2, withCompetitor: 4 },
        // wikipedia.org: as often beside the brand as beside a competitor → no gap.
        { domain: "en.wikipedia.org", provider: "openai", withBrand: 3, withCompetitor: 3 },
        // A site beside the brand more often → no gap.
        { domain: "capterra.com", provider: "openai", withBrand: 5, withCompetitor: 1 },
        // The competitor's own site and the brand's own: not sites to win.
        { domain: "globex.io", provider: "openai", withBrand: 0, withCompetitor: 6 },
        { domain: "acme.com", provider: "openai", withBrand: 1, withCompetitor: 2 },
        // Cited by Gemini without any competitor named: counted, but Gemini is not among its providers.
        { domain: "tech.co", provider: "gemini", withBrand: 0, withCompetitor: 0 },
      ],
      type,
    );
    expect(gap).toEqual([
      { domain: "reddit.com", type: "ugc", competitorAnswers: 4, brandAnswers: 0, providers: ["anthropic"] },
      { domain: "g2.com", type: "editorial", competitorAnswers: 5, brandAnswers: 3, providers: ["openai", "gemini"] },
      { domain: "tech.co", type: "editorial", competitorAnswers: 4, brandAnswers: 2, providers: ["openai"] },
    ]);
  });

  test("no rows, or none leaning to the competitors: an empty gap", () => {
    expect(citationGap([], type)).toEqual([]);
    expect(citationGap([{ domain: "g2.com", provider: "openai", withBrand: 2, withCompetitor: 2 }], type)).toEqual([]);
  });
});
