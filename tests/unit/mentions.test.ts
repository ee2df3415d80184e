import { describe, expect, test } from "bun:test";
import { answerText, brandMatcher } from "#src/core/mentions.ts";
import { isOrdinaryWord } from "#src/core/extraction/words.ts";

const brand = (name: string, aliases: string[] = [], domains: string[] = []) => brandMatcher({ name, aliases, domains });

/** Each case: the brand, a snippet as models write them, whether the snippet names the brand. */
function textCases(cases: Array<[ReturnType<typeof brand>, string, boolean]>) {
  test.each(cases.map(([matcher, text, named]) => [named ? "names" : "does not name", text, matcher, named] as const))("%s: %s", (_, text, matcher, named) => {
    expect(matcher.inText(text)).toBe(named);
  });
}

describe("isOrdinaryWord (SCOWL sizes 10–35, weekdays and months)", () => {
  test("common words, weekdays and months are ordinary, in any case", () => {
    for (const word of ["apple", "Target", "ZOOM", "notion", "square", "you", "slack", "Monday", "may"]) expect(isOrdinaryWord(word)).toBe(true);
  });

  test("brand names, rare words and acronyms are not", () => {
    for (const word of ["hubspot", "asana", "miro", "intel", "hp", "ge", "nike", "1password"]) expect(isOrdinaryWord(word)).toBe(false);
  });
});

describe("short all-caps names: HP, GE, 3M", () => {
  const hp = brand("HP");
  textCases([
    [hp, "For business laptops, the HP EliteBook 840 G11 is the safest pick.", true],
    [hp, "HP's Smart Tank printers are cheap to run.", true],
    [hp, "HP-branded toner costs more.", true],
    [hp, "HPE ProLiant servers dominate this segment.", false],
    [hp, "Free shipping applies to orders over $50.", false],
    [hp, "The 2.0-litre engine makes 300 hp.", false],
  ]);

  test("a short name typed in lower case still means the capitals", () => {
    expect(brand("hp").inText("The HP Envy is quiet.")).toBe(true);
    expect(brand("hp").inText("It makes 300 hp.")).toBe(false);
  });

  textCases([
    [brand("GE"), "GE Appliances makes the quietest dishwashers.", true],
    [brand("GE"), "Get the Bosch 800 instead; it is quieter.", false],
    [brand("3M"), "3M Command strips hold up to 7 kg.", true],
    [brand("3M"), "Drill a 3mm pilot hole first.", false],
  ]);

  test("in product names too, only in capitals", () => {
    expect(hp.inName("HP Spectre x360")).toBe(true);
    expect(hp.inName("HPE ProLiant DL380")).toBe(false);
    expect(hp.inName("Shipping Label Printer")).toBe(false);
  });
});

describe("names with punctuation match literally", () => {
  textCases([
    [brand("1Password"), "1Password and Bitwarden lead the password managers we tested.", true],
    [brand("1Password"), "Use a long password and a second factor.", false],
    [brand("AT&T"), "AT&T's fibre plans are the fastest here.", true],
    [brand("AT&T"), "Look at the attached table; at T-Mobile prices differ.", false],
    [brand("Disney+"), "Disney+ and Hulu are cheaper as a bundle.", true],
    [brand("Disney+"), "Disney World tickets sell out early.", false],
    [brand("Levi's"), "Levi’s 501 jeans remain the classic straight fit.", true],
    [brand("Levi’s"), "For raw denim, Levi's Vintage Clothing is worth a look.", true],
    [brand("Levi's"), "Levis and Wranglers were both mentioned by readers.", false],
    [brand("monday.com"), "Many agencies run client work in monday.com.", true],
    [brand("monday.com"), "Pricing for Monday.com starts at $9 per seat.", true],
    [brand("monday.com"), "We held the review on Monday.", false],
  ]);
});

describe("names that are ordinary words count only where written as a name", () => {
  const zoom = brand("Zoom");
  textCases([
    [zoom, "For video calls, Zoom and Google Meet are the usual choices.", true],
    [zoom, "Teams migrating from Zoom's webinar tool should check limits.", true],
    [zoom, "You can zoom in on any slide, and the map zoomed smoothly.", false],
    [zoom, "Zoom in on the details before you buy.", false], // first in the sentence
  ]);

  const you = brand("You", ["You.com"]);
  textCases([
    [you, "AI search engines such as Perplexity and You.com cite their sources.", true],
    [you, "You should compare your options before you decide.", false],
    [you, "## Why You Should Try Perplexity", false], // a Title Case heading
  ]);

  const monday = brand("monday.com", ["Monday"]);
  textCases([
    [monday, "Tools like Asana and Monday handle this well.", true],
    [monday, "If you want dashboards, monday.com is the easiest to set up.", true],
    [monday, "The update shipped on Monday, and most teams plan on Mondays.", false],
    [monday, "Mondays are for planning.", false], // a plural is another word
    [monday, "Monday morning stand-ups are shorter with a board.", false],
    [monday, "Support answers Monday to Friday.", false],
  ]);

  const notion = brand("Notion");
  textCases([
    [notion, "Many teams keep their wiki in Notion and their tasks in Linear.", true],
    [notion, "Consider Notion or Coda for docs-heavy teams.", true],
    [notion, "Check notion.so/pricing for the current plans.", true],
    [notion, "The notional value is high, and the notion that it is free is wrong.", false],
    [notion, "Notion is great for docs.", false], // first in the sentence: any word is capitalised there
    [notion, "1. **Notion** — flexible pages and databases", false], // a list item's first word
  ]);

  const apple = brand("Apple", ["Apple Inc."]);
  textCases([
    [apple, "Compared with Samsung, Apple offers longer software updates.", true],
    [apple, "Apple Inc. still leads the premium segment.", true], // the alias says which
    [apple, "An apple a day; apple cider vinegar is also popular.", false],
  ]);

  const target = brand("Target", ["Target Circle"]);
  textCases([
    [target, "Shop at Target or Walmart for the lowest prices.", true],
    [target, "Target Circle members save 5% on every order.", true],
    [target, "Know your target audience before choosing a platform.", false],
    [target, "Target Audience: small teams of 5–20 people", false],
  ]);

  const square = brand("Square");
  textCases([
    [square, "Payment processors such as Square and Stripe charge about 2.9% per sale.", true],
    [square, "Hotels near Times Square fill fast, so check the square footage.", false],
  ]);

  test("in product and company names a capital is enough", () => {
    expect(brand("Apple").inName("Apple Watch Series 10")).toBe(true);
    expect(brand("Apple").inName("apple cider vinegar gummies")).toBe(false);
    expect(brand("Notion").inName("Notion AI")).toBe(true);
    expect(brand("Notion").inName("Notional Finance")).toBe(false);
    expect(brand("monday.com", ["Monday"]).inName("monday Work Management")).toBe(false); // lower case, and not the brand's own words
    expect(brand("monday.com", ["Monday", "monday Work Management"]).inName("monday Work Management")).toBe(true);
  });
});

describe("aliases", () => {
  const meta = brand("Meta Platforms", ["Facebook", "Instagram"]);

  test("any alias names the brand, as whole words", () => {
    expect(meta.inText("Most small shops advertise on Facebook first.")).toBe(true);
    expect(meta.inText("Instagram Reels reach younger buyers.")).toBe(true);
    expect(meta.inText("Facebooks of the world")).toBe(false);
    expect(meta.inText("TikTok and YouTube lead here.")).toBe(false);
  });

  test("a domain written out names the brand", () => {
    expect(brand("Acme Corp", [], ["acme.com"]).inText("Full specs are on acme.com.")).toBe(true);
    expect(brand("Acme Corp", [], ["acme.com"]).inText("Full specs are on notacme.com.")).toBe(false);
  });

  test("the brand's own words after an ordinary name vouch for it, even first in a sentence", () => {
    const zoom = brand("Zoom", ["Zoom Video Communications", "Zoom Workplace"]);
    expect(zoom.inText("Zoom Workplace bundles chat and calls.")).toBe(true);
    expect(zoom.inText("Zoom Video handles 1,000 participants.")).toBe(true);
    expect(zoom.inText("Zoom levels matter for maps.")).toBe(false);
    expect(brand("Target", ["Target Circle"]).inText("Aim for the target circle first.")).toBe(false); // in lower case they are just words
  });
});

describe("a 'could not find' statement is not a mention", () => {
  const zorblax = brand("Zorblax");

  textCases([
    [zorblax, "I couldn't find any information about Zorblax, so I'd start with HubSpot.", false],
    [zorblax, "Zorblax does not appear to exist; consider Pipedrive instead.", false],
    [zorblax, "My searches turned up nothing about Zorblax CRM.", false],
    [zorblax, "I couldn't find any reviews of Zorblax, but Zorblax users on Reddit praise its API.", true], // the second is a mention
    [brand("HubSpot"), "I couldn't find any information about Zorblax, so I'd start with HubSpot.", true],
    [brand("Acme"), "There is no information on Acme's 2026 pricing yet.", true], // Acme exists; its pricing was not found
  ]);

  test("a prepared text gives the same answers and is read once", () => {
    const text = answerText("I couldn’t find any information about Zorblax, but HubSpot is solid.");
    expect(text.notFound.map((range) => range.subject)).toEqual(["Zorblax"]);
    expect(zorblax.inText(text)).toBe(false);
    expect(brand("HubSpot").inText(text)).toBe(true);
  });
});

describe("inAnswer", () => {
  const target = brand("Target");

  test("the answer's products or companies vouch for a name its text writes where capitals cannot tell", () => {
    const text = "Target is the easiest place to find it.";
    expect(target.inText(text)).toBe(false);
    expect(target.inAnswer({ products: [], companies: ["Target"], text })).toBe(true);
    expect(target.inAnswer({ products: ["Target Up&Up Wipes"], companies: [], text: "Target Up&Up Wipes are the cheapest." })).toBe(true);
    expect(target.inAnswer({ products: ["Walmart Great Value Wipes"], companies: ["Walmart"], text })).toBe(false);
  });

  test("the text decides, whatever the extraction returned", () => {
    // Listed by the extraction, absent from the text (or only as a common word): not named.
    expect(target.inAnswer({ products: ["Target Up&Up Wipes"], companies: ["Target"], text: "" })).toBe(false);
    expect(target.inAnswer({ products: [], companies: ["Target"], text: "Aim for the target price of $20." })).toBe(false);
    expect(brand("Pampers").inAnswer({ products: ["Pampers Swaddlers"], companies: ["Procter & Gamble"], text: "Huggies Little Snugglers fit best." })).toBe(
      false,
    );
    // Named by the text, left out by the extraction: named.
    expect(brand("Pampers").inAnswer({ products: ["Huggies Little Snugglers"], companies: [], text: "Huggies fit best; Pampers run small." })).toBe(true);
  });
});
