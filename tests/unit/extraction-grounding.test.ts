import { describe, expect, test } from "bun:test";
import { readExtraction } from "#src/core/extraction/extract.ts";

/*
 * readExtraction: what the extraction model returned, kept only where the answer itself names
 * it. The answers are written as models write when asked a plain question: prose, no JSON block.
 */

const names = (items: { name: string }[]) => items.map((item) => item.name);
const at = (text: string, item: { mention?: { start: number; end: number } }) => (item.mention ? text.slice(item.mention.start, item.mention.end) : undefined);

const answer = `For noise cancelling under $400, these are the ones to shortlist:

1. **Sony WH-1000XM5** – still the benchmark, and often discounted now the XM6 is out.
2. **Bose QuietComfort Ultra Headphones (2nd Gen)** – the most comfortable pair.
3. For travel: Sennheiser's Momentum 4 Wireless, with a 60-hour battery.

Sonos makes a good pair too.

\`\`\`
Apple AirPods Max (example only)
\`\`\``;

describe("readExtraction: grounding", () => {
  test("a name the answer does not contain is dropped and counted; every kept item points at its name", () => {
    const read = readExtraction(
      {
        products: [
          { name: "Sony WH-1000XM5", rank: 1, details: "The benchmark." },
          { name: "Bose QuietComfort Ultra Headphones (2nd Gen)", rank: 2, details: null },
          { name: "Sennheiser Momentum 4 Wireless", rank: 3, details: null },
          { name: "Bose QuietComfort 45", rank: 4, details: null }, // invented
          { name: "Sony WH1000-XM5", rank: 5, details: null }, // misspelt by the extractor
          { name: "Apple AirPods Max", rank: 6, details: null }, // only in a code block
        ],
        companies: [
          { name: "Sony Group Corporation", products: ["Sony WH-1000XM5"] },
          { name: "Bose", products: ["Bose QuietComfort Ultra Headphones (2nd Gen)", "Bose QuietComfort 45"] },
          { name: "Sennheiser", products: ["Sennheiser Momentum 4 Wireless"] },
          { name: "Apple", products: ["Apple AirPods Max"] },
          { name: "Audio-Technica", products: [] },
        ],
      },
      answer,
      { cut: false },
    );
    expect(names(read.products)).toEqual(["Sony WH-1000XM5", "Bose QuietComfort Ultra Headphones (2nd Gen)", "Sennheiser Momentum 4 Wireless"]);
    expect(read.products.map((p) => at(answer, p))).toEqual([
      "Sony WH-1000XM5",
      "Bose QuietComfort Ultra Headphones (2nd Gen)",
      "Sennheiser's Momentum 4 Wireless",
    ]);
    expect(read.products.map((p) => p.mention?.order)).toEqual([1, 2, 3]);
    expect(read.companies.map((c) => [c.name, at(answer, c), c.products])).toEqual([
      // The answer says "Sony", never the group's legal name: the company is shown as the answer names it.
      ["Sony", "Sony", ["Sony WH-1000XM5"]],
      ["Bose", "Bose", ["Bose QuietComfort Ultra Headphones (2nd Gen)"]],
      ["Sennheiser", "Sennheiser's", ["Sennheiser Momentum 4 Wireless"]],
    ]);
    // Three products (invented, misspelt, code only) and two companies (code only, never named).
    expect(read.ungrounded).toBe(5);
  });

  test("the noise rules apply before grounding: categories, fragments, possessives, not-found subjects", () => {
    const text = `I couldn't find any information about the "Zorblax Pro 9". For **Robot Vacuum Cleaners**, the **Roborock S8 MaxV Ultra** leads; iRobot's Roomba Combo 10 Max is the runner-up, and Nike's name does not belong here.`;
    const read = readExtraction(
      {
        products: ["Robot Vacuum Cleaners", "Roborock S8 MaxV Ultra", "iRobot Roomba Combo 10 Max", "Zorblax Pro 9", "and the Roborock"],
        companies: ["Roborock", "iRobot's", "Zorblax"],
      },
      text,
      { cut: false },
    );
    expect(names(read.products)).toEqual(["Roborock S8 MaxV Ultra", "iRobot Roomba Combo 10 Max"]);
    expect(at(text, read.products[1]!)).toBe("iRobot's Roomba Combo 10 Max");
    expect(names(read.companies)).toEqual(["Roborock", "iRobot"]);
    expect(read.ungrounded).toBe(0);
  });

  test("a name of ordinary words counts as written, even first in a sentence, but not in another case", () => {
    const text = "Linear is the fastest issue tracker; Height is gone, and bear in mind the notion of cycles.";
    const read = readExtraction({ products: ["Linear", "Bear", "Notion"], companies: [] }, text, { cut: false });
    expect(names(read.products)).toEqual(["Linear"]);
    expect(read.products[0]?.mention).toEqual({ start: 0, end: 6, order: 1 });
    expect(read.ungrounded).toBe(2);
  });

  test("a company is found without its corporate or trade tail, also where only a sentence starts with it, and shown as the answer names it", () => {
    const text = "**If you want docs and tasks in one place: Notion.** Notion's databases double as a tracker. For mattresses, Helix makes the Midnight.";
    const read = readExtraction({ products: [], companies: ["Notion Labs", "Helix Sleep", "Atlassian"] }, text, { cut: false });
    expect(read.companies.map((c) => [c.name, at(text, c)])).toEqual([
      ["Notion", "Notion"],
      ["Helix", "Helix"],
    ]);
    expect(read.ungrounded).toBe(1); // Atlassian makes Jira, but this answer never says so
  });

  test("in a cut answer, a name that runs into the cut may be the start of a longer one", () => {
    const text = "1. **Sony WH-1000XM6** – the benchmark.\n2. **Bose QuietComfort";
    const raw = { products: ["Sony WH-1000XM6", "Bose QuietComfort"], companies: ["Sony", "Bose"] };
    expect(names(readExtraction(raw, text, { cut: true }).products)).toEqual(["Sony WH-1000XM6"]);
    // The maker is named whole before the cut.
    expect(names(readExtraction(raw, text, { cut: true }).companies)).toEqual(["Sony", "Bose"]);
    expect(names(readExtraction(raw, text, { cut: false }).products)).toEqual(["Sony WH-1000XM6", "Bose QuietComfort"]);
  });

  test("a shorter name grounds a longer one only where the answer writes the words it leaves out", () => {
    const text = `- **Ride1Up Portola** – a light commuter. Portola owners like the range.
- **New Balance Hierro Mid GTX** – wide sizes.
- **Roomba Combo 10 Max** – mops too; iRobot still leads on obstacle avoidance.
- **Samsonite Freeform Carry-On** – tough. The **Travelpro Platinum Elite Carry-On Spinner** is the crew favourite.`;
    const read = readExtraction(
      {
        products: [
          "RideUp Portola", // misspelt brand word: "Portola" alone does not vouch for it
          "Ride1Up Portola",
          "Salomon X Ultra 5 Mid GTX", // invented: only "Mid GTX" of it is in the answer
          "iRobot Roomba Combo 10 Max", // the maker the extractor added is named in the answer
          "Samsonite Freeform Carry-On Spinner", // a tail the answer never gives this product
        ],
        companies: [],
      },
      text,
      { cut: false },
    );
    expect(names(read.products)).toEqual(["Ride1Up Portola", "iRobot Roomba Combo 10 Max"]);
    expect(at(text, read.products[1]!)).toBe("Roomba Combo 10 Max");
    expect(read.ungrounded).toBe(3);
  });

  test("a company the answer names only by a shorter name is kept under the answer's name, once", () => {
    const text = "**Purina Pro Plan Sensitive Skin & Stomach** is the vets' favourite; Purina also makes EN. For meal kits, HelloFresh is the biggest.";
    const read = readExtraction(
      {
        products: ["Purina Pro Plan Sensitive Skin & Stomach"],
        companies: [
          { name: "Nestlé Purina", products: ["Purina Pro Plan Sensitive Skin & Stomach"] },
          { name: "Purina", products: [] },
          { name: "HelloFresh SE", products: [] },
          { name: "Ally Financial", products: [] },
        ],
      },
      text,
      { cut: false },
    );
    expect(read.companies.map((c) => [c.name, at(text, c), c.products])).toEqual([
      ["Purina", "Purina", ["Purina Pro Plan Sensitive Skin & Stomach"]],
      ["HelloFresh", "HelloFresh", []],
    ]);
    expect(read.ungrounded).toBe(1); // Ally: not in this answer under any name
    // The tail written elsewhere as an ordinary word does not make the legal name the answer's.
    const savings = "Ally is a favourite for its app; buckets help with financial goals.";
    expect(names(readExtraction({ products: [], companies: ["Ally Financial"] }, savings, { cut: false }).companies)).toEqual(["Ally"]);
  });

  test("a product the answer writes only inside a longer listed one is a piece of it; one also written alone stays", () => {
    const text = `The **Tapo RV30 Max Plus** adds a dock. **Blue Apron** is smaller. **Capital One 360 Performance Savings** has branches.
**Notion Calendar** pairs with **Notion**, and Notion is free for one person.`;
    const read = readExtraction(
      {
        products: [
          "Tapo RV30 Max Plus",
          "Max Plus",
          "Blue Apron",
          "Apron",
          "Capital One 360 Performance Savings",
          "360 Performance Savings",
          "Notion Calendar",
          "Notion",
        ],
        companies: [],
      },
      text,
      { cut: false },
    );
    expect(names(read.products)).toEqual(["Tapo RV30 Max Plus", "Blue Apron", "Capital One 360 Performance Savings", "Notion Calendar", "Notion"]);
    expect(read.ungrounded).toBe(0); // pieces are not inventions
  });

  test("the ranks close up over what was dropped: the list reads 1, 2, 3 in the extractor's order", () => {
    const read = readExtraction(
      {
        products: [
          { name: "Bose QuietComfort Ultra Headphones (2nd Gen)", rank: 2, details: null },
          { name: "Sony WH-1000XM5", rank: 1, details: null },
          { name: "Bose QuietComfort 45", rank: 3, details: null }, // invented
          { name: "Sennheiser Momentum 4 Wireless", rank: 4, details: null },
        ],
        companies: [],
      },
      answer,
      { cut: false },
    );
    expect(read.products.map((product) => [product.name, product.rank])).toEqual([
      ["Bose QuietComfort Ultra Headphones (2nd Gen)", 2],
      ["Sony WH-1000XM5", 1],
      ["Sennheiser Momentum 4 Wireless", 3],
    ]);
  });

  test("a reply of another shape reads as nothing, without throwing", () => {
    for (const raw of [null, "Sony", [{ name: "Sony" }], { items: ["Sony"] }, { products: "Sony" }]) {
      expect(readExtraction(raw, "Sony makes them.", { cut: false })).toEqual({ products: [], companies: [], ungrounded: 0 });
    }
  });
});
