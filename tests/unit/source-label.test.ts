import { describe, expect, test } from "bun:test";
import { sourceLabel } from "#src/core/urls.ts";

// Two pages of one site must not read the same ("notion.com" twice).
describe("sourceLabel: what a source is called in every list", () => {
  test("two pages of one host are told apart by their path", () => {
    const pricing = sourceLabel({ url: "https://www.notion.com/pricing" });
    const ai = sourceLabel({ url: "https://www.notion.com/product/ai?utm_source=openai" });
    expect([pricing, ai]).toEqual(["notion.com/pricing", "notion.com/product/ai"]);
  });

  test("a site's root is its host; a deep path keeps its first and last segments", () => {
    expect(sourceLabel({ url: "https://www.notion.com/" })).toBe("notion.com");
    expect(sourceLabel({ url: "https://www.g2.com/categories/crm/small-business/reviews/" })).toBe("g2.com/categories/…/reviews");
    expect(sourceLabel({ url: "https://news.ycombinator.com/item?id=4242" })).toBe("news.ycombinator.com/item?id=4242");
    expect(sourceLabel({ url: "https://example.com/caf%C3%A9/c++" })).toBe("example.com/café/c++");
  });

  test("long segments are clipped, tracking parameters and fragments dropped", () => {
    const label = sourceLabel({ url: "https://blog.example.com/2026/the-very-long-title-of-an-article-about-crm-tools#part-2" });
    expect(label).toBe("blog.example.com/2026/the-very-long-title-of-an-artic…");
    expect(sourceLabel({ url: "https://example.com/a?gclid=x&utm_medium=y" })).toBe("example.com/a");
  });

  test("the title where there is one, with preferTitle; else host and path, never 'Unnamed Source'", () => {
    expect(sourceLabel({ url: "https://www.notion.com/pricing", title: "Notion Pricing Plans" }, { preferTitle: true })).toBe("Notion Pricing Plans");
    expect(sourceLabel({ url: "https://www.notion.com/pricing", title: "  " }, { preferTitle: true })).toBe("notion.com/pricing");
    expect(sourceLabel({ url: "https://www.notion.com/pricing", title: "Notion Pricing Plans" })).toBe("notion.com/pricing");
  });

  test("an unresolved Gemini redirect is its title or its host; anything not http(s) is its raw text", () => {
    const redirect = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC123xyz";
    expect(sourceLabel({ url: redirect, title: "hubspot.com" })).toBe("hubspot.com");
    expect(sourceLabel({ url: redirect })).toBe("vertexaisearch.cloud.google.com");
    expect(sourceLabel({ url: " javascript:alert(1) " })).toBe("javascript:alert(1)");
    expect(sourceLabel({ url: "not a url" })).toBe("not a url");
  });
});
