import { describe, expect, test } from "bun:test";
import type { RunRecord } from "#src/contract/search-result.ts";
import { sourceCounts, sourceType } from "#src/core/sources.ts";

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
