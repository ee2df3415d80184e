import { describe, expect, test } from "bun:test";
import { truncationOf } from "#src/contract/providers.ts";
import type { ModelResult } from "#src/contract/search-result.ts";
import { cleanExtraction, parseStructuredAnswer } from "#src/core/extraction/extract.ts";
import { withMentions } from "#src/core/extraction/positions.ts";
import type { ProviderAdapter, ProviderAnswer } from "#src/server/services/providers/types.ts";
import { deadlineFor } from "#src/server/services/search/deadline.ts";
import { runProvider } from "#src/server/services/search/run-provider.ts";

/*
 * The six extraction classes of issue 13, each on answers written the way the models write them.
 * The labelled set in tests/fixtures/answers/ measures them end to end (`bun run eval`); these
 * pin each rule down where it is decided.
 */

const names = (items: { name: string }[]) => items.map((item) => item.name);
const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

describe("1. descriptive categories in sentence case", () => {
  const answer = `For a Canadian winter you want a down parka rated well below -25 °C.

**Insulated winter parkas** worth a look:
1. **Canada Goose Expedition Parka** – the benchmark for extreme cold.
2. **Fjällräven Nuuk Parka** – warm and a lot cheaper.

If you work at a desk all day, Sihoo chairs are a budget alternative to Ergonomic office chairs from the big names.`;

  test("a capitalised first word does not make a phrase of ordinary words a brand", () => {
    const cleaned = cleanExtraction(
      {
        products: [
          "Insulated winter parkas",
          "Ergonomic office chairs",
          "Hardside carry-on suitcases",
          "Canada Goose Expedition Parka",
          "Fjällräven Nuuk Parka",
        ],
        companies: ["Canada Goose", "Fjällräven", "Premium outdoor brands"],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["Canada Goose Expedition Parka", "Fjällräven Nuuk Parka"]);
    expect(names(cleaned.companies)).toEqual(["Canada Goose", "Fjällräven"]);
  });

  test("a rarer head noun and a generic acronym still make a category", () => {
    const cleaned = cleanExtraction({ products: ["True HEPA air purifiers", "Coway Airmega AP-1512HH", "Cool-mist humidifiers"], companies: ["Coway"] });
    expect(names(cleaned.products)).toEqual(["Coway Airmega AP-1512HH"]);
  });

  test("a company in the answer vouches for a word of the phrase", () => {
    expect(names(cleanExtraction({ products: ["Sihoo chairs"], companies: [] }, answer).products)).toEqual([]);
    expect(names(cleanExtraction({ products: ["Sihoo chairs"], companies: ["Sihoo"] }, answer).products)).toEqual(["Sihoo chairs"]);
  });

  test("a brand named like a category is kept when it is one of the answer's companies", () => {
    const cleaned = cleanExtraction(
      { products: [{ name: "Kit", rank: 1 }], companies: [{ name: "Kit", products: ["Kit"] }] },
      "For a creator newsletter, **Kit** (formerly ConvertKit) is the usual pick.",
    );
    expect(names(cleaned.products)).toEqual(["Kit"]);
  });
});

describe("2. a 'could not find' about one fact is not 'found nothing'", () => {
  test("not finding stock levels or prices for a product keeps it; not finding the product drops it", () => {
    const answer = `The **Breville Bambino Plus** is the easiest way into proper espresso. I couldn't find current stock levels for the Bambino Plus at Canadian retailers, but it is usually available at Best Buy and Costco.

I couldn't find any information about the Brewtopia Nano 2 you mentioned; it may be a regional or discontinued model.

The **Gaggia Classic Pro** is the enthusiast's choice. I couldn't find 2026 pricing for it yet.`;
    const cleaned = cleanExtraction(
      {
        products: ["Breville Bambino Plus", "Brewtopia Nano 2", "Gaggia Classic Pro"],
        companies: [
          { name: "Breville", products: ["Breville Bambino Plus"] },
          { name: "Gaggia", products: ["Gaggia Classic Pro"] },
        ],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["Breville Bambino Plus", "Gaggia Classic Pro"]);
  });

  test("no listing 'or reviews' for a product is not finding the product", () => {
    const answer = `I couldn't find any listing or reviews for the "PureZone Max 3" you mentioned. I also couldn't find the official CADR rating for the Winix 5500-2, but it is widely recommended.`;
    const cleaned = cleanExtraction(
      {
        products: ["PureZone Max 3", "Winix 5500-2"],
        companies: [
          { name: "PureZone", products: ["PureZone Max 3"] },
          { name: "Winix", products: ["Winix 5500-2"] },
        ],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["Winix 5500-2"]);
    expect(names(cleaned.companies)).toEqual(["Winix"]);
  });

  test("details that miss one fact keep the product; details that found nothing drop it", () => {
    const cleaned = cleanExtraction({
      products: [
        { name: "Dyson V15 Detect", details: "Couldn't find current discounts, but it is often on sale around Black Friday." },
        { name: "Shark Stratos", details: "Unable to find stock levels; ships in 2 days from Shark." },
        { name: "Vaccuflo 9", details: "No information found about this model." },
      ],
      companies: [],
    });
    expect(names(cleaned.products)).toEqual(["Dyson V15 Detect", "Shark Stratos"]);
  });
});

describe("3. quoted and emphasised names in not-found statements", () => {
  test('"X", *X* and **X** are the subject, and a company whose only products were not found goes with them', () => {
    const answer = `I searched for the products you asked about. I couldn't find any information about "AeroBrew X1", and my searches turned up nothing on *Quillo Pods* or **Steamly One**.

Well-reviewed machines that do exist: the **De'Longhi Dedica** and the **Breville Bambino**.`;
    const cleaned = cleanExtraction(
      {
        products: ["AeroBrew X1", "Quillo Pods", "Steamly One", "De'Longhi Dedica", "Breville Bambino"],
        companies: [
          { name: "Brewtech Labs", products: ["AeroBrew X1"] },
          { name: "Quillo", products: ["Quillo Pods"] },
          { name: "Steamly", products: ["Steamly One"] },
          { name: "De'Longhi", products: ["De'Longhi Dedica"] },
          { name: "Breville", products: ["Breville Bambino"] },
        ],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["De'Longhi Dedica", "Breville Bambino"]);
    expect(names(cleaned.companies)).toEqual(["De'Longhi", "Breville"]);
  });

  test("a company with one product not found and another recommended stays, with the one it recommends", () => {
    const answer = `I couldn't find anything about the "Sony WH-2000XM9"; Sony's current flagship is the **Sony WH-1000XM6**.`;
    const cleaned = cleanExtraction(
      { products: ["Sony WH-2000XM9", "Sony WH-1000XM6"], companies: [{ name: "Sony", products: ["Sony WH-2000XM9", "Sony WH-1000XM6"] }] },
      answer,
    );
    expect(cleaned.companies).toEqual([{ name: "Sony", products: ["Sony WH-1000XM6"] }]);
  });
});

describe("4. truncated answers", () => {
  const prose = `Here are the best robot vacuums for pet hair:

1. **Roborock S8 MaxV Ultra** – the strongest suction and a self-emptying dock.
2. **iRobot Roomba Combo j9+** – best at avoiding cords and pet mess.

\`\`\`json
{"products": [{"name": "Roborock S8 MaxV Ultra", "rank": 1}, {"name": "iRobot Roomba Combo j9+", "rank": 2}], "companies": [{"name": "Robo`;

  test("a JSON block cut mid-way is never read in part", () => {
    expect(parseStructuredAnswer(prose, { cut: true })).toBeNull();
    expect(parseStructuredAnswer(prose)).toBeNull();
    // A whole example block followed by the cut real one: the example is not the answer's list.
    const withExample = `Format: {"products": [{"name": "Example"}], "companies": []}\n\n${prose}`;
    expect(parseStructuredAnswer(withExample, { cut: true })).toBeNull();
  });

  test("a cut answer is read by the extraction call on the text that exists, and records the cut", async () => {
    const prompts: string[] = [];
    const adapter: ProviderAdapter = {
      id: "anthropic",
      mode: "live",
      model: "claude-sonnet-4-6",
      check: async () => {},
      search: async (): Promise<ProviderAnswer> => ({
        modelVersion: "claude-sonnet-4-6",
        text: prose,
        sources: [{ url: "https://www.rtings.com/vacuum/reviews/best/pet-hair", cited: true }],
        searchQueries: ["best robot vacuum pet hair"],
        searched: true,
        usage: { inputTokens: 900, outputTokens: 4096, searches: 1 },
        truncated: truncationOf("anthropic", "max_tokens"),
      }),
      structured: async (request) => {
        prompts.push(request.prompt);
        const value = {
          products: [
            { name: "Roborock S8 MaxV Ultra", rank: 1 },
            { name: "iRobot Roomba Combo j9+", rank: 2 },
          ],
          companies: [
            { name: "Roborock", products: ["Roborock S8 MaxV Ultra"] },
            { name: "iRobot", products: ["iRobot Roomba Combo j9+"] },
          ],
        };
        return { value, model: "claude-haiku-4-5", usage: { inputTokens: 1200, outputTokens: 80, searches: 0 } };
      },
    };
    const result: ModelResult = await runProvider(adapter, {
      query: "best robot vacuum for pet hair",
      options: {},
      signal: new AbortController().signal,
      retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0, callTimeoutMs: 10_000 },
      deadline: deadlineFor(1, { oneIterationMs: 60_000, hundredIterationsMs: 60_000 }),
    });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("Roborock S8 MaxV Ultra");
    expect(result.extraction).toBe("extractor");
    expect(result.extractor).toEqual({ provider: "anthropic", model: "claude-haiku-4-5" });
    expect(result.truncated).toEqual({ kind: "length", signal: "max_tokens" });
    expect(names(result.products)).toEqual(["Roborock S8 MaxV Ultra", "iRobot Roomba Combo j9+"]);
    expect(names(result.companies)).toEqual(["Roborock", "iRobot"]);
  });
});

describe("5. possessives inside names", () => {
  test('"Acme\'s Rocket 3" is "Acme Rocket 3" when the answer knows Acme', () => {
    const answer = `Breville's Barista Express is the classic all-in-one, and the Breville Barista Express Impress adds assisted tamping.`;
    const cleaned = cleanExtraction(
      {
        products: ["Breville's Barista Express", "Breville Barista Express", "Breville's Barista Express Impress"],
        companies: [{ name: "Breville", products: ["Breville's Barista Express", "Breville's Barista Express Impress"] }],
      },
      answer,
    );
    expect(names(cleaned.products)).toEqual(["Breville Barista Express", "Breville Barista Express Impress"]);
    expect(cleaned.companies).toEqual([{ name: "Breville", products: ["Breville Barista Express", "Breville Barista Express Impress"] }]);
  });

  test("a brand whose own name is possessive keeps it", () => {
    const cleaned = cleanExtraction({
      products: ["Hill's Science Diet Adult Sensitive Stomach & Skin", "The Farmer's Dog"],
      companies: [
        { name: "Hill's Pet Nutrition", products: ["Hill's Science Diet Adult Sensitive Stomach & Skin"] },
        { name: "The Farmer's Dog", products: ["The Farmer's Dog"] },
      ],
    });
    expect(names(cleaned.products)).toEqual(["Hill's Science Diet Adult Sensitive Stomach & Skin", "The Farmer's Dog"]);
  });
});

describe("6. mention positions", () => {
  const answer = `On a budget? The **Asics Novablast 5** is the value pick, but most runners should start with the Nike Pegasus 41, and Brooks makes the Ghost 16, which On Running's Cloudmonster 2 rivals for cushioning.

${json({
  products: [
    { name: "Nike Pegasus 41", rank: 1 },
    { name: "Brooks Ghost 16", rank: 2 },
    { name: "Asics Novablast 5", rank: 3 },
    { name: "On Cloudmonster 2", rank: 4 },
  ],
  companies: [{ name: "Nike" }, { name: "Brooks Running" }, { name: "ASICS" }, { name: "On" }],
})}`;

  test("each item gets the offset of its first mention in the prose and its order among its kind", () => {
    const located = withMentions(cleanExtraction(parseStructuredAnswer(answer)!, answer), answer);
    const at = (item: { mention?: { start: number; end: number } }) => (item.mention ? answer.slice(item.mention.start, item.mention.end) : undefined);
    expect(located.products.map((p) => [p.name, at(p), p.mention?.order])).toEqual([
      ["Nike Pegasus 41", "Nike Pegasus 41", 2],
      ["Brooks Ghost 16", "Ghost 16", 3],
      ["Asics Novablast 5", "Asics Novablast 5", 1],
      ["On Cloudmonster 2", "Cloudmonster 2", 4],
    ]);
    // "On a budget?" starts a sentence with the word; the brand On is named in "On Running's".
    expect(located.companies.map((c) => [c.name, at(c), c.mention?.order])).toEqual([
      ["Nike", "Nike", 2],
      ["Brooks Running", "Brooks", 3],
      ["ASICS", "Asics", 1],
      ["On", "On", 4],
    ]);
    expect(located.companies.at(-1)?.mention?.start).toBe(answer.indexOf("On Running's"));
  });

  test("a name the answer only gives in its JSON block points there; one it never writes has no mention", () => {
    const text = `Top pick below.\n\n${json({ products: [{ name: "Garmin Forerunner 265" }], companies: [] })}`;
    const located = withMentions({ products: [{ name: "Garmin Forerunner 265" }, { name: "Coros Pace 3" }], companies: [] }, text);
    expect(located.products[0]?.mention?.start).toBe(text.indexOf("Garmin Forerunner 265"));
    expect(located.products[0]?.mention?.order).toBe(1);
    expect(located.products[1]?.mention).toBeUndefined();
  });

  test("names that come back in answer after answer are found alike in each (their patterns are made once and shared)", () => {
    const items = () => cleanExtraction(parseStructuredAnswer(answer)!, answer);
    const first = withMentions(items(), answer);
    const other = `Runners rate the Brooks Ghost 16 and Nike Pegasus 41 alike; ASICS and On trail them. ${answer}`;
    const shifted = withMentions(items(), other);
    expect(shifted.products.find((p) => p.name === "Brooks Ghost 16")?.mention?.start).toBe(other.indexOf("Brooks Ghost 16"));
    expect(withMentions(items(), answer)).toEqual(first);
  });
});

describe("7. categories written as titles", () => {
  const kept = (products: string[], companies: string[] = []) => names(cleanExtraction({ products, companies }).products);

  test("a title of ordinary words ending in a plural or uncountable kind of thing is a category", () => {
    const titles = [
      "Robot Vacuum Cleaners",
      "Noise Cancelling Headphones",
      "Noise-Cancelling Headphones",
      "Project Management Software",
      "Running Shoes",
      "Standing Desks",
      "Air Purifiers",
      "Electric Bikes",
      "Hiking Gear",
      "Meal Kits",
    ];
    expect(kept([...titles, "Roborock S8 MaxV Ultra"])).toEqual(["Roborock S8 MaxV Ultra"]);
  });

  test("real products made of ordinary words survive", () => {
    const products = [
      "Magic Keyboard",
      "Apple Music",
      "Apple Watch",
      "Sleep Number",
      "Beats Studio Buds",
      "Galaxy Buds",
      "Happy Socks",
      "Common Projects",
      "Instant Pot",
      "Google Home",
      "Kindle Paperwhite",
      "Ring Video Doorbell",
      "Purple Mattress",
      "Brooks Ghost",
      "Herman Miller Aeron",
      "Notion",
      "Slack",
      "Linear",
      "Bear",
    ];
    expect(kept(products)).toEqual(products);
  });

  test("a company of the same extraction vouches for its word; a company keeps a name of its trade", () => {
    expect(kept(["Rainbow Sandals"])).toEqual([]);
    expect(kept(["Rainbow Sandals"], ["Rainbow"])).toEqual(["Rainbow Sandals"]);
    expect(names(cleanExtraction({ products: ["RadWagon 5"], companies: [{ name: "Rad Power Bikes", products: ["RadWagon 5"] }] }).companies)).toEqual([
      "Rad Power Bikes",
    ]);
  });
});
