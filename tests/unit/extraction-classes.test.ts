import { describe, expect, test } from "bun:test";
import { truncationOf } from "#src/contract/provider-config.ts";
import type { ModelResult } from "#src/contract/search-result.ts";
import { cleanExtraction, parseStructuredAnswer, readExtraction } from "#src/core/extraction/extract.ts";
import { cleanName, isFragment, isTitleCaseCategory } from "#src/core/extraction/noise.ts";
import { notFoundSubjects } from "#src/core/extraction/not-found.ts";
import { withMentions } from "#src/core/extraction/positions.ts";
import type { ProviderAdapter, ProviderAnswer } from "#src/server/services/providers/types.ts";
import { deadlineFor } from "#src/server/services/search/deadline.ts";
import { runProvider } from "#src/server/services/search/run-provider.ts";

/*
 * The six extraction classes, each on answers written the way the models write them.
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
      check: async () => ({}),
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

describe("8. what a small extraction model gets wrong", () => {
  const read = (products: unknown[], companies: unknown[], text: string) => readExtraction({ products, companies }, text, { cut: false });

  test("categories written as titles the answer's own words give away", () => {
    const text = `## City Strollers
Full-size strollers are the most comfortable; the **Bugaboo Fox 5** is the pick.
## Home Espresso Machines
Espresso machines with grinders save space; the **Breville Bambino Plus** is the easiest.
## Mattresses For Side Sleepers
Hybrid mattresses suit side sleepers; the **Helix Midnight Luxe** is zoned.`;
    const got = read(
      ["City Strollers", "Bugaboo Fox 5", "Home Espresso Machines", "Breville Bambino Plus", "Mattresses For Side Sleepers", "Helix Midnight Luxe"],
      [],
      text,
    );
    expect(names(got.products)).toEqual(["Bugaboo Fox 5", "Breville Bambino Plus", "Helix Midnight Luxe"]);
    // Without the answer's word for the kind of thing, or not as a heading, a plural of an ordinary word may be a name.
    const strollers = { commonNoun: (word: string) => word === "strollers", heading: (name: string) => name === "City Strollers" };
    expect(isTitleCaseCategory("City Strollers")).toBe(false);
    expect(isTitleCaseCategory("City Strollers", new Set(), { ...strollers, heading: () => false })).toBe(false);
    expect(isTitleCaseCategory("City Strollers", new Set(), strollers)).toBe(true);
    expect(isTitleCaseCategory("Mattresses For Side Sleepers")).toBe(true);
  });

  test("products of ordinary words survive where the answer writes their kind in lower case", () => {
    const text = `The **Magic Keyboard** is the best of the keyboards for a Mac. The **Purple Mattress** beats most mattresses on cooling.
**Beats Studio Buds** are comfortable buds. The **Instant Pot** replaces three pots, and **Brooks Ghost 16** are the easiest shoes to like.`;
    const products = ["Magic Keyboard", "Purple Mattress", "Beats Studio Buds", "Instant Pot", "Brooks Ghost 16"];
    expect(names(read(products, ["Apple", "Purple", "Beats", "Instant Brands", "Brooks Running"], text).products)).toEqual(products);
    // Named in the prose, not as a heading, with no company to vouch: still products.
    const notes =
      "**Apple Notes** is free and better than its reputation; take notes anywhere. The **Capital One Venture Rewards Credit Card** is the simple card. **Discover Online Savings** has no fees, unlike most savings accounts.";
    const plain = ["Apple Notes", "Capital One Venture Rewards Credit Card", "Discover Online Savings"];
    expect(names(read(plain, [], notes).products)).toEqual(plain);
  });

  test("a label before a name and the start of its description after it are not the name", () => {
    expect(cleanName("Honourable mention: Jira")).toBe("Jira");
    expect(cleanName("Best overall: Notion")).toBe("Notion");
    expect(cleanName("Runner-up: Asana")).toBe("Asana");
    expect(cleanName("Hoka Clifton 9: Plush")).toBe("Hoka Clifton 9");
    // A title with a colon is a name.
    expect(cleanName("Star Wars: Outlaws")).toBe("Star Wars: Outlaws");
    expect(cleanName("Mission: Impossible")).toBe("Mission: Impossible");
  });

  test("two names joined by 'and' are not one name; a brand written with '&' or 'and' is", () => {
    expect(isFragment("TCL QM8K and Hisense U8")).toBe(true);
    expect(isFragment("Sony WH-1000XM6 & Bose QuietComfort Ultra")).toBe(true);
    for (const name of [
      "Briggs & Riley Baseline Essential Carry-On",
      "SoFi Checking and Savings",
      "Purina Pro Plan Adult 7+ Sensitive Skin & Stomach",
      "Ben & Jerry's Chunky Monkey",
      "Pottery Barn and West Elm",
    ]) {
      expect(isFragment(name)).toBe(false);
    }
  });

  test("a maker given as a product beside its own fuller products is the company; a company's only product stays", () => {
    const text =
      "Sony's **Sony WH-1000XM6** leads and the **Sony WH-1000XM5** is cheaper. **YNAB** is the budgeting pick, and **Notion** doubles as a tracker.";
    const got = read(
      ["Sony", "Sony WH-1000XM6", "Sony WH-1000XM5", "YNAB", "Notion"],
      [{ name: "Sony", products: ["Sony", "Sony WH-1000XM6", "Sony WH-1000XM5"] }, "YNAB", "Notion"],
      text,
    );
    expect(names(got.products)).toEqual(["Sony WH-1000XM6", "Sony WH-1000XM5", "YNAB", "Notion"]);
    expect(got.companies.map((c) => [c.name, c.products])).toEqual([
      ["Sony", ["Sony WH-1000XM6", "Sony WH-1000XM5"]],
      ["YNAB", []],
      ["Notion", []],
    ]);
  });

  test("'couldn't find anything about it' is about the name the sentence gave", () => {
    const refusal = "I searched for the Zorblax Halo ring but couldn't find anything about it: no manufacturer page or review.";
    expect(notFoundSubjects(refusal)).toEqual(["Zorblax Halo"]);
    expect(names(read(["Zorblax Halo"], ["Zorblax"], refusal).products)).toEqual([]);
    // The sentence before, when "it" opens a sentence of its own.
    expect(notFoundSubjects("I looked up the Zorblax Halo. Sadly I couldn't find anything about it.")).toEqual(["Zorblax Halo"]);
    // One fact of it, or nobody searching, keeps the product.
    const fact = "The **Oura Ring 4** is the one to buy. I couldn't find current pricing for it, but it is around $349.";
    expect(names(read(["Oura Ring 4"], [], fact).products)).toEqual(["Oura Ring 4"]);
    expect(notFoundSubjects("The Oura Ring 4 is so good that you won't find anything about it to dislike.")).toEqual([]);
  });

  test("a brand whose own name ends in 's keeps it; a possessive of a brand does not", () => {
    const text = "**Hill's Prescription Diet i/d** is the vets' first choice. Nike's Pegasus 41 is the daily trainer Nike sells most.";
    const got = read(["Hill's Prescription Diet i/d", "Nike's Pegasus 41"], [{ name: "Hill's", products: ["Hill's Prescription Diet i/d"] }, "Nike"], text);
    expect(names(got.products)).toEqual(["Hill's Prescription Diet i/d", "Nike Pegasus 41"]);
    expect(names(got.companies)).toEqual(["Hill's", "Nike"]);
  });
});

describe("9. a compound word is one word however it is written", () => {
  const read = (products: unknown[], companies: unknown[], text: string) => readExtraction({ products, companies }, text, { cut: false });
  const answer = `If you mostly read novels, an e-reader beats a tablet: e-readers are light and their screens easy on the eyes.
**Kindle Paperwhite** is the e-reader most people should buy; **Kobo Clara BW** is the one for library books.
For the flat, a mesh Wi-Fi system beats one router: the **TP-Link Deco X55** covers three bedrooms.`;

  test("a category with a hyphen, in any capitalisation, number or spelling, is not a product", () => {
    const categories = [
      "E-Reader",
      "E-Readers",
      "e-reader",
      "E-reader",
      "E Reader",
      "e reader",
      "eReader",
      "Ereader",
      "Best E-Readers",
      "Wi-Fi Routers",
      "WiFi Routers",
      "Mesh Wi-Fi Systems",
      "E-Bikes",
    ];
    const products = ["Kindle Paperwhite", "Kobo Clara BW", "TP-Link Deco X55"];
    expect(names(read([...categories, ...products], ["Amazon", "Kobo", "TP-Link"], answer).products)).toEqual(products);
    expect(names(cleanExtraction({ products: categories, companies: [] }).products)).toEqual([]);
  });

  test("one the lists do not know is a kind of thing where the answer writes it as a common noun, in any of its spellings", () => {
    const text = "Air-Fryers (air fryers, as most people write it) beat the oven for one or two. The **Ninja AF101** is the pick.";
    expect(names(read(["Air-Fryers", "Ninja AF101"], ["Ninja"], text).products)).toEqual(["Ninja AF101"]);
    expect(
      names(cleanExtraction({ products: ["Air-Fryer", "Ninja AF101"], companies: [] }, "An air-fryer beats the oven: the **Ninja AF101**.").products),
    ).toEqual(["Ninja AF101"]);
    // Without the answer's word for it, a hyphenated name is a name.
    expect(names(cleanExtraction({ products: ["Air-Fryers"], companies: [] }, "The **Air-Fryers** range is the pick.").products)).toEqual(["Air-Fryers"]);
  });

  test("names with a hyphen stay products: a brand's own, and one whose parts are not a kind of thing", () => {
    const hyphenated = ["T-Mobile", "X-Men", "K-Cups", "Co-Pilot", "E-Trade", "TP-Link Deco X55", "Coca-Cola", "eBay", "Kindle E-Reader"];
    expect(names(cleanExtraction({ products: hyphenated, companies: [] }, answer).products)).toEqual(hyphenated);
  });
});
