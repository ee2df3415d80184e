/**
 * The catalogue's product and company names, found in a text or looked up as typed. Whole words
 * only, longest name first; a name made of ordinary English words ("Notion", "Found", "Apple
 * Notes") counts only as written, so "I found" or "a notion" never names anything.
 */
import { escapeRegExp, wholeWordPattern } from "#src/core/extraction/whole-words.ts";
import { isOrdinaryWord } from "#src/core/extraction/words.ts";
import { catalogue, type CatalogueProduct, type Category } from "./catalogue.ts";

export interface Placement {
  category: Category;
  product: CatalogueProduct;
}

export interface NameEntry {
  /** As the catalogue spells it. */
  name: string;
  kind: "product" | "company";
  /** Where it occurs: the product itself, or each of the company's products. */
  placements: Placement[];
}

export interface NameHit {
  entry: NameEntry;
  /** Offset of the match in the text. */
  index: number;
  text: string;
}

/** Every catalogue name in the text, in order of appearance, none overlapping another. */
export function findNames(text: string): NameHit[] {
  const hits: NameHit[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const entry = entries.get(match[0].toLowerCase());
      if (entry) hits.push({ entry, index: match.index, text: match[0] });
    }
  }
  hits.sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  const kept: NameHit[] = [];
  for (const hit of hits) if (!kept.some((k) => hit.index < k.index + k.text.length)) kept.push(hit);
  return kept;
}

/** The entry a typed name is, in any case ("notion" → Notion), or undefined. */
export function lookupName(typed: string): NameEntry | undefined {
  return entries.get(typed.trim().toLowerCase());
}

/** Whether a name is some catalogue product's name (case-insensitive). */
export function isProductName(name: string): boolean {
  return entries.get(name.toLowerCase())?.kind === "product";
}

/** Products whose name holds the typed words ("Pegasus" → Nike Pegasus 41), most popular first. */
export function productsNamed(typed: string): Placement[] {
  const key = ` ${typed.trim().toLowerCase()} `;
  if (key.trim().length < 3) return [];
  return allPlacements.filter(({ product }) => ` ${product.name.toLowerCase()} `.includes(key)).sort((a, b) => b.product.popularity - a.product.popularity);
}

// ---------------------------------------------------------------------------------------------

const entries = new Map<string, NameEntry>();
const allPlacements: Placement[] = catalogue.flatMap((category) => category.products.map((product) => ({ category, product })));

for (const placement of allPlacements) add(placement.product.name, "product", placement);
for (const placement of allPlacements) add(placement.product.company, "company", placement);

function add(name: string, kind: NameEntry["kind"], placement: Placement): void {
  const key = name.toLowerCase();
  const entry = entries.get(key) ?? { name, kind, placements: [] };
  // A name that is both a product and a company ("Pipedrive") stays the product.
  if (entry.kind === kind) entry.placements.push(placement);
  entries.set(key, entry);
}

const ordinary = (name: string): boolean => name.split(/[\s-]+/).every((word) => /^\p{L}+$/u.test(word) && isOrdinaryWord(word));
const alternation = (names: string[]): string =>
  names
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");
const boundary = (body: string, flags: "gu" | "giu") => wholeWordPattern(`(?:${body})`, flags);
const names = [...entries.values()].map((entry) => entry.name);
const patterns = [boundary(alternation(names.filter((name) => !ordinary(name))), "giu"), boundary(alternation(names.filter(ordinary)), "gu")];
