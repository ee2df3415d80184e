import { describe, expect, test } from "bun:test";
import { dedupeSources, domainCounts, hostOf, normalizeUrl } from "#src/core/urls.ts";

describe("normalizeUrl", () => {
  test("the same page cited by two providers normalises to one canonical form", () => {
    const openai = "https://www.RTINGS.com/headphones/reviews/sony/wh-1000xm6/?utm_source=openai";
    const claude = "HTTPS://www.rtings.com:443/headphones/reviews/sony/wh-1000xm6#test-results";
    expect(normalizeUrl(openai)).toBe("https://www.rtings.com/headphones/reviews/sony/wh-1000xm6");
    expect(normalizeUrl(claude)).toBe(normalizeUrl(openai));
  });

  test("the root has no trailing slash: https://a.com/ → https://a.com", () => {
    expect(normalizeUrl("https://a.com/")).toBe("https://a.com");
    expect(normalizeUrl("https://a.com")).toBe("https://a.com");
    expect(normalizeUrl("https://a.com/?page=2")).toBe("https://a.com?page=2");
  });

  test("tracking parameters go, other parameters stay in their order and encoding", () => {
    const url = "https://shop.example/p?utm_source=x&id=42&UTM_Medium=y&gclid=1&color=dark%20blue&fbclid=2&mc_cid=3&mc_eid=4&ref_src=twsrc&sort=asc";
    expect(normalizeUrl(url)).toBe("https://shop.example/p?id=42&color=dark%20blue&sort=asc");
  });

  test("default ports are dropped, other ports kept; path case is kept", () => {
    expect(normalizeUrl("http://Example.com:80/Docs/Guide/")).toBe("http://example.com/Docs/Guide");
    expect(normalizeUrl("http://example.com:8080/a")).toBe("http://example.com:8080/a");
  });

  test("invalid and non-web URLs come back trimmed but otherwise untouched", () => {
    expect(normalizeUrl("  not a url/?utm_source=x  ")).toBe("not a url/?utm_source=x");
    expect(normalizeUrl("www.example.com/page/")).toBe("www.example.com/page/");
    expect(normalizeUrl("mailto:Sales@Example.com")).toBe("mailto:Sales@Example.com");
  });
});

describe("hostOf", () => {
  test("host without www., lower-cased", () => {
    expect(hostOf("https://WWW.NYTimes.com/wirecutter/reviews/best-headphones/")).toBe("nytimes.com");
    expect(hostOf("https://blog.hubspot.com/sales/crm")).toBe("blog.hubspot.com");
  });

  test("null for text the UI must show raw", () => {
    expect(hostOf("not a url")).toBeNull();
    expect(hostOf("")).toBeNull();
    expect(hostOf("ftp://files.example.com/a")).toBeNull();
    expect(hostOf("javascript:alert(1)")).toBeNull();
  });
});

describe("domainCounts", () => {
  test("groups by host (www. ignored), most links first, ties alphabetical, invalid left out", () => {
    const counts = domainCounts([
      "https://www.rtings.com/a",
      "https://rtings.com/b",
      "https://www.theverge.com/x",
      "https://zdnet.com/y",
      "https://www.rtings.com/c",
      "garbage",
      "https://techradar.com/z",
      "https://techradar.com/w",
    ]);
    expect(counts).toEqual([
      { domain: "rtings.com", count: 3 },
      { domain: "techradar.com", count: 2 },
      { domain: "theverge.com", count: 1 },
      { domain: "zdnet.com", count: 1 },
    ]);
    // "All Sources (N links from M domains)": M is the number of entries.
    expect(counts.length).toBe(4);
  });
});

describe("dedupeSources", () => {
  test("keeps the first URL and title, fills a missing title later, cited if any copy was cited", () => {
    const deduped = dedupeSources([
      { url: "https://www.rtings.com/headphones/best?utm_source=openai", cited: false },
      { url: "https://example.com/a", title: "A", cited: true },
      { url: "https://www.rtings.com/headphones/best/", title: "The 6 Best Headphones", cited: true },
      { url: "https://www.rtings.com/headphones/best#anc", title: "Other title", cited: false },
    ]);
    expect(deduped).toEqual([
      { url: "https://www.rtings.com/headphones/best?utm_source=openai", title: "The 6 Best Headphones", cited: true },
      { url: "https://example.com/a", title: "A", cited: true },
    ]);
  });

  test("a blank title counts as missing", () => {
    const deduped = dedupeSources([
      { url: "https://a.com/x", title: "  ", cited: false },
      { url: "https://a.com/x/", title: "Real title", cited: false },
    ]);
    expect(deduped).toEqual([{ url: "https://a.com/x", title: "Real title", cited: false }]);
  });

  test("invalid URLs are deduplicated on their trimmed text", () => {
    expect(
      dedupeSources([
        { url: " vertex redirect ", cited: false },
        { url: "vertex redirect", cited: true },
      ]),
    ).toEqual([{ url: "vertex redirect", cited: true }]);
  });
});
