import { describe, expect, test } from "bun:test";
import {
  cleanExtraction,
  EXTRACTION_INSTRUCTIONS,
  EXTRACTION_JSON_SCHEMA,
  parseStructuredAnswer,
  withExtractionInstructions,
} from "#src/core/extraction/extract.ts";

// --- Answers in the shapes the three providers return -------------------------------------------

/** OpenAI Responses API output_text: markdown with url_citation links, then the fenced JSON. */
const OPENAI_ANSWER = `Here are the best noise-cancelling headphones right now, based on recent reviews:

1. **Sony WH-1000XM6** – The best overall pick, with class-leading noise cancelling and a 30-hour battery. ([rtings.com](https://www.rtings.com/headphones/reviews/sony/wh-1000xm6?utm_source=openai))
2. **Bose QuietComfort Ultra Headphones** – The most comfortable, with excellent immersive audio. ([theverge.com](https://www.theverge.com/reviews/bose-qc-ultra?utm_source=openai))
3. **Apple AirPods Max** – Best for iPhone users thanks to seamless switching.

If you want something cheaper, the Sony WH-CH720N is a solid budget choice.

\`\`\`json
{
  "products": [
    {"name": "Sony WH-1000XM6", "rank": 1, "details": "Best overall: class-leading noise cancelling and a 30-hour battery."},
    {"name": "Bose QuietComfort Ultra Headphones", "rank": 2, "details": "The most comfortable, with immersive audio."},
    {"name": "Apple AirPods Max", "rank": 3, "details": "Best for iPhone users."},
    {"name": "Sony WH-CH720N", "rank": 4, "details": "A solid budget choice."}
  ],
  "companies": [
    {"name": "Sony", "products": ["Sony WH-1000XM6", "Sony WH-CH720N"]},
    {"name": "Bose", "products": ["Bose QuietComfort Ultra Headphones"]},
    {"name": "Apple", "products": ["Apple AirPods Max"]}
  ]
}
\`\`\``;

/** Claude: the answer arrives as several text blocks (split at citations) that the adapter joins. */
const CLAUDE_BLOCKS = [
  "Based on my research, here are the best CRM options for a small business in 2026:\n\n",
  "**HubSpot CRM** is the most popular starting point because its free tier covers contacts, deals and email tracking.",
  " ",
  "**Pipedrive** is built around a visual sales pipeline and is praised for being easy to adopt.",
  '\n\n**Zoho CRM** offers the most features for the price.\n\nI couldn\'t find any information about the Zorblax CRM you mentioned, so I left it out.\n\n```json\n{"products": [',
  '{"name": "HubSpot CRM", "rank": 1, "details": "Free tier covers contacts, deals and email tracking."}, {"name": "Pipedrive", "rank": 2, "details": "Visual sales pipeline, easy to adopt."}, {"name": "Zoho CRM", "rank": 3, "details": "Most features for the price."}],',
  ' "companies": [{"name": "HubSpot", "products": ["HubSpot CRM"]}, {"name": "Pipedrive", "products": ["Pipedrive"]}, {"name": "Zoho", "products": ["Zoho CRM"]}]}\n```',
];

/** Gemini: prose, then the JSON without a fence, keys capitalised, then a closing remark. */
const GEMINI_ANSWER = `For project management, three tools stand out this year. **ClickUp** is the most flexible, **monday.com** is the easiest for non-technical teams, and **Notion** doubles as a wiki.

Here is the structured list you asked for:
{"Products": [{"Name": "ClickUp", "Rank": "1", "Details": "Most flexible"}, {"Name": "monday.com", "Rank": "2", "Details": "Easiest for non-technical teams"}, {"Name": "Notion", "Rank": "3", "Details": "Doubles as a wiki"}], "Companies": [{"Name": "ClickUp"}, {"Name": "monday.com Ltd.", "Products": ["monday.com"]}, {"Name": "Notion Labs", "Products": ["Notion"]}]}

Let me know if you'd like a comparison of their pricing plans!`;

const names = (items: { name: string }[]) => items.map((item) => item.name);

describe("parseStructuredAnswer: provider answers", () => {
  test("OpenAI: fenced ```json after markdown prose with citation links", () => {
    const parsed = parseStructuredAnswer(OPENAI_ANSWER);
    expect(parsed?.products).toHaveLength(4);
    expect(parsed?.products[0]).toEqual({ name: "Sony WH-1000XM6", rank: 1, details: "Best overall: class-leading noise cancelling and a 30-hour battery." });
    expect(parsed?.companies).toHaveLength(3);
  });

  test("Claude: JSON split across concatenated text blocks", () => {
    const parsed = parseStructuredAnswer(CLAUDE_BLOCKS.join(""));
    expect(parsed?.products.map((p) => (p as { name: string }).name)).toEqual(["HubSpot CRM", "Pipedrive", "Zoho CRM"]);
    expect(parsed?.companies).toHaveLength(3);
  });

  test("Gemini: unfenced JSON after prose, capitalised keys, trailing text", () => {
    const parsed = parseStructuredAnswer(GEMINI_ANSWER);
    expect(parsed?.products).toHaveLength(3);
    expect(parsed?.companies).toHaveLength(3);
    const cleaned = cleanExtraction(parsed!, GEMINI_ANSWER);
    expect(cleaned.products).toEqual([
      { name: "ClickUp", rank: 1, details: "Most flexible" },
      { name: "monday.com", rank: 2, details: "Easiest for non-technical teams" },
      { name: "Notion", rank: 3, details: "Doubles as a wiki" },
    ]);
    expect(cleaned.companies).toEqual([
      { name: "ClickUp", products: [] },
      { name: "monday.com Ltd.", products: ["monday.com"] },
      { name: "Notion Labs", products: ["Notion"] },
    ]);
  });
});

describe("parseStructuredAnswer: tolerance", () => {
  test("a plain ``` fence without a language", () => {
    const parsed = parseStructuredAnswer('Top pick below.\n```\n{"products": [{"name": "Notion", "rank": 1}], "companies": []}\n```');
    expect(parsed).toEqual({ products: [{ name: "Notion", rank: 1 }], companies: [] });
  });

  test("single-quoted JSON with an apostrophe inside a value, and trailing commas", () => {
    const parsed = parseStructuredAnswer(
      "{'products': [{'name': 'Nike Pegasus 41', 'details': 'Nike's best daily trainer',},], 'companies': [{'name': 'Nike', 'products': ['Nike Pegasus 41',],},],}",
    );
    expect(parsed).toEqual({
      products: [{ name: "Nike Pegasus 41", details: "Nike's best daily trainer" }],
      companies: [{ name: "Nike", products: ["Nike Pegasus 41"] }],
    });
  });

  test("typographic (smart) quotes", () => {
    const parsed = parseStructuredAnswer(
      "Here you go: {“products”: [{“name”: “1Password”, “rank”: 1}], “companies”: [{“name”: “AgileBits”, “products”: [“1Password”]}]}",
    );
    expect(parsed).toEqual({ products: [{ name: "1Password", rank: 1 }], companies: [{ name: "AgileBits", products: ["1Password"] }] });
  });

  test("a top-level array of products, with varied key names and a string rank", () => {
    const parsed = parseStructuredAnswer('My picks:\n```json\n[{"product_name": "ClickUp", "rank": "1"}, {"Name": "Asana"}]\n```');
    expect(parsed).toEqual({ products: [{ product_name: "ClickUp", rank: "1" }, { Name: "Asana" }], companies: [] });
    expect(cleanExtraction(parsed!).products).toEqual([{ name: "ClickUp", rank: 1 }, { name: "Asana" }]);
  });

  test("the LAST structured block wins when the model shows an example first", () => {
    const text =
      'The format is {"products": [{"name": "Example Product"}], "companies": []}.\n\nMy answer:\n{"products": [{"name": "Linear"}], "companies": []}';
    expect(parseStructuredAnswer(text)?.products).toEqual([{ name: "Linear" }]);
  });

  test("braces in the prose and inside strings do not confuse it", () => {
    const text =
      'Use the {query} syntax for filters {like this}.\n{"products": [{"name": "Raycast", "details": "Snippets use {cursor} placeholders } and \\"quotes\\""}], "companies": []} Done {ok}.';
    expect(parseStructuredAnswer(text)?.products).toEqual([{ name: "Raycast", details: 'Snippets use {cursor} placeholders } and "quotes"' }]);
  });

  test("unescaped inner quotes in a value are recovered", () => {
    const parsed = parseStructuredAnswer('{"products": [{"name": "Notion", "details": "Reviewers call it the "everything app" for teams"}], "companies": []}');
    expect(parsed?.products).toEqual([{ name: "Notion", details: 'Reviewers call it the "everything app" for teams' }]);
  });

  test("a block with only companies still counts", () => {
    expect(parseStructuredAnswer('{"companies": [{"name": "Stripe"}]}')).toEqual({ products: [], companies: [{ name: "Stripe" }] });
  });

  test("null when there is no structured part: plain prose, truncated JSON, unrelated JSON", () => {
    expect(parseStructuredAnswer("I recommend Notion and ClickUp for most teams.")).toBeNull();
    expect(parseStructuredAnswer('```json\n{"products": [{"name": "Notion", "rank": 1}, {"name": "Cli')).toBeNull();
    expect(parseStructuredAnswer('{"query": "best crm", "count": 3}')).toBeNull();
    expect(parseStructuredAnswer("")).toBeNull();
  });
});

describe("cleanExtraction: validation", () => {
  test("garbage entries are skipped, never thrown on", () => {
    const raw = {
      products: [null, 42, "", { rank: 1 }, { name: 7 }, ["x"], { name: "  Linear  ", rank: 2 }, "Height"],
      companies: [undefined, {}, "Linear Orbit", { name: "Height", products: "Height" }],
    };
    expect(cleanExtraction(raw)).toEqual({
      products: [{ name: "Linear", rank: 2 }, { name: "Height" }],
      companies: [
        { name: "Linear Orbit", products: [] },
        { name: "Height", products: ["Height"] },
      ],
    });
    expect(() => cleanExtraction({ products: "nope", companies: null } as unknown as { products: unknown[]; companies: unknown[] })).not.toThrow();
  });

  test("markdown, list markers and ™ are tidied off names", () => {
    const { products } = cleanExtraction({ products: ["**Notion**", "1. ClickUp", "Slack™", "[Linear](https://linear.app)"], companies: [] });
    expect(names(products)).toEqual(["Notion", "ClickUp", "Slack", "Linear"]);
  });
});

describe("cleanExtraction: noise rules", () => {
  test("a. product categories are dropped, real products kept", () => {
    const categories = [
      "CRM software",
      "running shoes",
      "project management tools",
      "noise-cancelling headphones",
      "VPN services",
      "Best Running Shoes",
      "Smart TVs",
      "wireless earbuds",
    ];
    const products = [
      "HubSpot CRM",
      "Nike Pegasus 41",
      "Sony WH-1000XM5",
      "monday.com",
      "iPhone 17",
      "1Password",
      "ClickUp",
      "Notion",
      "Apple Watch",
      "Proton VPN",
      "Cash App",
      "Bose QuietComfort Ultra Headphones",
    ];
    const cleaned = cleanExtraction({ products: [...categories, ...products].map((name) => ({ name })), companies: [] });
    expect(names(cleaned.products)).toEqual(products);
  });

  test("a. a lower-cased brand + category survives when the company is named", () => {
    expect(names(cleanExtraction({ products: ["hubspot crm"], companies: [] }).products)).toEqual([]);
    expect(names(cleanExtraction({ products: ["hubspot crm"], companies: ["HubSpot"] }).products)).toEqual(["hubspot crm"]);
  });

  test("a. category 'companies' are dropped too", () => {
    expect(names(cleanExtraction({ products: [], companies: ["VPN providers", "NordVPN", "CRM companies", "Salesforce"] }).companies)).toEqual([
      "NordVPN",
      "Salesforce",
    ]);
  });

  test("b. fragments are dropped: long, sentences, explanations, conjunctions, article + adjective, too short", () => {
    const fragments = [
      "a tool that many small teams find easy to adopt quickly",
      "This is a great tool for teams.",
      "Notion: great for docs and wikis",
      "Asana — best for large teams",
      "and Asana",
      "Or Trello",
      "also Basecamp",
      "The best option",
      "the top pick",
      "X",
      "—",
    ];
    const kept = ["Star Wars: Outlaws", "The North Face", "Acme Inc.", "Basecamp"];
    const cleaned = cleanExtraction({ products: [...fragments, ...kept], companies: [] });
    expect(names(cleaned.products)).toEqual(kept);
  });

  test("c. possessives are stripped, then deduplicated", () => {
    const cleaned = cleanExtraction({ products: [], companies: ["Nike's", "Nike", "Adidas’s", "Levi's"] });
    expect(names(cleaned.companies)).toEqual(["Nike", "Adidas", "Levi's"]);
    expect(names(cleanExtraction({ products: ["Sony’s", "Sony"], companies: [] }).products)).toEqual(["Sony"]);
  });

  test("d. case duplicates merge into the first, better-cased, lowest rank, first details", () => {
    const cleaned = cleanExtraction({
      products: [
        { name: "hubspot crm", rank: 3 },
        { name: "Pipedrive", rank: 2 },
        { name: "HubSpot CRM", rank: 1, details: "Free tier" },
        { name: "HUBSPOT CRM", details: "Ignored" },
      ],
      companies: ["HubSpot"],
    });
    expect(cleaned.products).toEqual([
      { name: "HubSpot CRM", rank: 1, details: "Free tier" },
      { name: "Pipedrive", rank: 2 },
    ]);
  });

  test("e. entries whose details say nothing was found are dropped", () => {
    const cleaned = cleanExtraction({
      products: [
        { name: "Zorblax 3000", details: "No information found about this product." },
        { name: "Quuxly Pro", details: "I couldn't find reliable reviews of it, but owners rate it well." },
        { name: "Frobnitz X", details: "This product does not appear to exist." },
        { name: "Glimmer Buds", details: "Could not find any listing." },
        { name: "Plonk Max", details: "Unable to find it in stores" },
        { name: "Sony WH-1000XM5", details: "Great battery; no information on 2026 pricing yet." },
      ],
      companies: [],
    });
    // Reviews are one fact about Quuxly Pro, not Quuxly Pro itself.
    expect(names(cleaned.products)).toEqual(["Quuxly Pro", "Sony WH-1000XM5"]);
  });

  test("e. what the answer says it found nothing about is not listed", () => {
    const answer = `I couldn't find any information about the Zorblax Pro 9 headphones, so I can't recommend them. No results for Quuxly either. Frobnitz does not appear to exist. However, the Sony WH-1000XM5 is excellent, and you can't find a better budget pick than the Anker Soundcore Q30.`;
    const cleaned = cleanExtraction(
      {
        products: ["Zorblax Pro 9", "Quuxly", "Frobnitz", "Sony WH-1000XM5", "Anker Soundcore Q30"],
        companies: [{ name: "Zorblax", products: ["Zorblax Pro 9"] }, "Quuxly", "Sony", "Anker"],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["Sony WH-1000XM5", "Anker Soundcore Q30"]);
    expect(names(cleaned.companies)).toEqual(["Sony", "Anker"]);
  });

  test("e. a not-found remark about one product keeps its maker and siblings", () => {
    const answer =
      "I couldn't find any information about Notion Plus, but Notion itself and Notion Calendar are free for individuals. I also couldn't find any reviews of Sony's 2026 lineup.";
    const cleaned = cleanExtraction(
      {
        products: ["Notion Plus", "Notion", "Notion Calendar", "Sony WH-1000XM5"],
        companies: [{ name: "Notion Labs", products: ["Notion", "Notion Plus"] }, "Sony"],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["Notion", "Notion Calendar", "Sony WH-1000XM5"]);
    expect(cleaned.companies).toEqual([
      { name: "Notion Labs", products: ["Notion"] },
      { name: "Sony", products: [] },
    ]);
  });

  test("e. the Claude answer drops the CRM it could not find even though the JSON never listed it", () => {
    const answer = CLAUDE_BLOCKS.join("");
    const parsed = parseStructuredAnswer(answer)!;
    const withHallucination = { ...parsed, products: [...parsed.products, { name: "Zorblax CRM", rank: 4 }] };
    expect(names(cleanExtraction(withHallucination, answer).products)).toEqual(["HubSpot CRM", "Pipedrive", "Zoho CRM"]);
  });

  test("f. companies merge case-insensitively with their product lists", () => {
    const cleaned = cleanExtraction({
      products: [{ name: "iPhone 17", rank: 1 }],
      companies: [
        { name: "apple", products: ["iphone 17", "AirPods Pro 3"] },
        { name: "Samsung", products: ["Galaxy S26"] },
        { name: "Apple", products: ["AirPods Pro 3", "airpods pro 3", "Apple Watch"] },
      ],
    });
    expect(cleaned.companies).toEqual([
      { name: "Apple", products: ["iPhone 17", "AirPods Pro 3", "Apple Watch"] },
      { name: "Samsung", products: ["Galaxy S26"] },
    ]);
  });

  test("g. ranks: order kept when missing, numeric strings converted, bad ranks removed", () => {
    const cleaned = cleanExtraction({
      products: [
        { name: "Trello" },
        { name: "Asana", rank: "2" },
        { name: "Jira", rank: "#1" },
        { name: "Wrike", rank: 0 },
        { name: "Basecamp", rank: -3 },
        { name: "Height", rank: "first" },
        { name: "Linear", rank: Number.NaN },
      ],
      companies: [],
    });
    expect(cleaned.products).toEqual([
      { name: "Trello" },
      { name: "Asana", rank: 2 },
      { name: "Jira", rank: 1 },
      { name: "Wrike" },
      { name: "Basecamp" },
      { name: "Height" },
      { name: "Linear" },
    ]);
  });
});

describe("cleanExtraction on a full OpenAI answer", () => {
  test("keeps the four products in rank order and the three companies", () => {
    const cleaned = cleanExtraction(parseStructuredAnswer(OPENAI_ANSWER)!, OPENAI_ANSWER);
    expect(cleaned.products.map((p) => [p.name, p.rank])).toEqual([
      ["Sony WH-1000XM6", 1],
      ["Bose QuietComfort Ultra Headphones", 2],
      ["Apple AirPods Max", 3],
      ["Sony WH-CH720N", 4],
    ]);
    expect(cleaned.companies[0]).toEqual({ name: "Sony", products: ["Sony WH-1000XM6", "Sony WH-CH720N"] });
  });
});

describe("instructions and schema", () => {
  test("the instructions ask for a fenced json block in the parsed shape and follow the query after a blank line", () => {
    expect(EXTRACTION_INSTRUCTIONS).toContain("```json");
    const example = parseStructuredAnswer(EXTRACTION_INSTRUCTIONS);
    expect(example).not.toBeNull();
    expect(withExtractionInstructions("  best crm  ")).toBe(`best crm\n\n${EXTRACTION_INSTRUCTIONS}`);
  });

  test("the schema is strict-mode ready: every object closed and every property required", () => {
    const objects: Record<string, unknown>[] = [];
    const walk = (node: unknown) => {
      if (!node || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      if (record.type === "object") objects.push(record);
      Object.values(record).forEach(walk);
    };
    walk(EXTRACTION_JSON_SCHEMA);
    expect(objects).toHaveLength(3);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect([...(object.required as string[])].sort()).toEqual(Object.keys(object.properties as object).sort());
    }
    const product = (EXTRACTION_JSON_SCHEMA.properties.products as { items: { properties: Record<string, { type: unknown }> } }).items.properties;
    expect(product.rank?.type).toEqual(["integer", "null"]);
    expect(product.details?.type).toEqual(["string", "null"]);
  });

  test("a strict-mode reply with null rank and details cleans to missing fields", () => {
    const reply = { products: [{ name: "Notion", rank: null, details: null }], companies: [{ name: "Notion Labs", products: ["Notion"] }] };
    expect(cleanExtraction(reply)).toEqual({ products: [{ name: "Notion" }], companies: [{ name: "Notion Labs", products: ["Notion"] }] });
  });
});
