import { describe, expect, test } from "bun:test";
import { readProse } from "#src/core/extraction/prose.ts";

/*
 * readProse: the result when the extraction call fails — what a careful reader takes from where
 * answers put names (lists, tables, bold, headings), with the same noise rules, and companies
 * only where the prose says who makes what.
 */

const names = (items: { name: string }[]) => items.map((item) => item.name);
const at = (text: string, item: { mention?: { start: number; end: number } }) => (item.mention ? text.slice(item.mention.start, item.mention.end) : undefined);

describe("readProse: where answers put names", () => {
  const answer = `Under $400 you can get every flagship except the AirPods Max.

### Noise Cancelling Headphones

1. **Sony WH-1000XM5** – still the benchmark, and often discounted.
2. **Best overall:** Bose QuietComfort Ultra – the most comfortable pair.
3. **Budget pick**: a cheaper pair is fine for commuting.

- Sennheiser Momentum 4: the best sound and a 60-hour battery.
- Great for travel: folds flat.

### 4. Sonos Ace

**Key features:** spatial audio, TV audio hand-off.

**Why we like it**

| Model | Battery | Price |
|---|---|---|
| Apple AirPods Max | 20 h | $549 |
| Soundcore Space One | 40 h | $99 |

If you are on a tight budget, the **Soundcore Space One** by Anker is hard to beat, and **Robot Vacuum Cleaners** are another story.`;

  test("heads of list items, headings, first cells of table rows and bold names; not labels, categories or the header", () => {
    const read = readProse(answer, { cut: false });
    expect(names(read.products)).toEqual([
      "Sony WH-1000XM5",
      "Bose QuietComfort Ultra",
      "Sennheiser Momentum 4",
      "Sonos Ace",
      "Apple AirPods Max",
      "Soundcore Space One",
    ]);
    // Ranks are the order of recommendation among what is kept: "### 4. Sonos Ace" comes third, after
    // "3. Budget pick", which names no product (the ranks close up, as for the extraction call's).
    expect(read.products.map((p) => p.rank)).toEqual([1, 2, undefined, 3, undefined, undefined]);
    // Each points at its name; the first mention of "Apple AirPods Max" is the table's.
    for (const product of read.products) expect(at(answer, product)).toBe(product.name);
    expect(read.products.map((p) => p.mention?.order)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("companies only where the prose says who makes what", () => {
    // "by Anker"; Sony, Bose, Sennheiser and Sonos are never named on their own.
    expect(readProse(answer, { cut: false }).companies).toEqual([
      { name: "Anker", products: ["Soundcore Space One"], mention: expect.objectContaining({ order: 1 }) },
    ]);
    const table = `| Doorbell | Maker | Storage |\n|---|---|---|\n| Eufy Video Doorbell C31 | Eufy (Anker) | local |\n| Arlo Essential 2K | Arlo | cloud |`;
    expect(readProse(table, { cut: false }).companies.map((c) => [c.name, c.products])).toEqual([
      ["Eufy", ["Eufy Video Doorbell C31"]],
      ["Arlo", ["Arlo Essential 2K"]],
    ]);
    const alone = `- **Roborock Saros 10R** – the strongest suction.\n- **Herman Miller's Embody** – for back pain.\n\nRoborock's app is the best of them, and Herman Miller offers a 12-year warranty.`;
    const read = readProse(alone, { cut: false });
    expect(names(read.products)).toEqual(["Roborock Saros 10R", "Herman Miller Embody"]);
    expect(read.companies.map((c) => [c.name, c.products])).toEqual([
      ["Roborock", ["Roborock Saros 10R"]],
      ["Herman Miller", ["Herman Miller Embody"]],
    ]);
  });

  test("the noise rules apply: not-found subjects, possessive brands kept, fragments", () => {
    const text = `1. **Hill's Science Diet Adult 7+ Sensitive Stomach & Skin** – highly digestible.
2. **The Farmer's Dog** – fresh food.
3. **Zorblax Pro 9** – see below.
4. **And the rest** – fine too.

I couldn't find any information about the Zorblax Pro 9, so I can't recommend it.`;
    const read = readProse(text, { cut: false });
    expect(names(read.products)).toEqual(["Hill's Science Diet Adult 7+ Sensitive Stomach & Skin", "The Farmer's Dog"]);
    expect(read.companies).toEqual([]);
  });

  test("a cut answer's unfinished last line, a code block and a JSON block give nothing", () => {
    const text = `1. **Sony WH-1000XM6** – the benchmark.

\`\`\`
- **Apple AirPods Max** – an example
\`\`\`

{"products": [{"name": "Bose QuietComfort Ultra"}], "companies": []}

2. **Bose QuietComfort Ultra** – the most comfo`;
    expect(names(readProse(text, { cut: true }).products)).toEqual(["Sony WH-1000XM6"]);
    expect(names(readProse(text, { cut: false }).products)).toEqual(["Sony WH-1000XM6", "Bose QuietComfort Ultra"]);
  });

  test("prose without lists, tables, bold or headings gives nothing rather than guesses", () => {
    expect(readProse("The Coway Airmega AP-1512HH is a top performer, and the Levoit Core 300 is cheaper.", { cut: false })).toEqual({
      products: [],
      companies: [],
    });
    expect(readProse("", { cut: false })).toEqual({ products: [], companies: [] });
  });
});
