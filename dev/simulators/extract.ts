/**
 * What the extraction fallback "model" returns: the catalogue's product and company names found
 * in a text (catalogue-names.ts), in order of appearance. Like a model, it lists what the answer
 * recommends: when some names stand out (bold, a list item's, heading's or table row's head), a product
 * mentioned only in passing ("deep Jira integration") is left out. "Sony's WH-1000XM6" is read
 * as the product it names, as a model reads it.
 */
import { findNames, lookupName } from "./catalogue-names.ts";

export interface ExtractedProduct {
  name: string;
  rank: number;
  details: string;
}

export interface ExtractedCompany {
  name: string;
  products: string[];
}

export interface Extraction {
  products: ExtractedProduct[];
  companies: ExtractedCompany[];
}

export function extractCatalogueNames(answer: string): Extraction {
  const text = withoutPossessives(answer);
  const products: ExtractedProduct[] = [];
  const companies = new Map<string, ExtractedCompany>();
  const companyNamed = (name: string): ExtractedCompany => {
    const company = companies.get(name) ?? { name, products: [] };
    companies.set(name, company);
    return company;
  };
  const hits = findNames(text);
  const heads = hits.filter((hit) => standsOut(text, hit.index));
  const recommended = new Set((heads.some((hit) => hit.entry.kind === "product") ? heads : hits).map((hit) => hit.entry));
  for (const { entry } of hits) {
    // Named in passing ("integrates with Google Workspace"): not what the answer recommends.
    if (!recommended.has(entry)) continue;
    const product = entry.placements[0]?.product;
    if (entry.kind === "company" || !product) {
      companyNamed(entry.name);
      continue;
    }
    if (products.some((p) => p.name === product.name)) continue;
    products.push({ name: product.name, rank: products.length + 1, details: product.details });
    companyNamed(product.company).products.push(product.name);
  }
  return { products, companies: [...companies.values()] };
}

/** Whether a name at this offset opens a bold span, a list item, a heading or a table row (its first cell, or the one after a rank). */
function standsOut(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 8), index);
  return (
    /\*\*$/.test(before) ||
    /(?:^|\n)\s*(?:#{1,6}\s+)?(?:\d+\.|[-*])\s+$/.test(before) ||
    /(?:^|\n)\|\s*(?:#?\d+\s*\|\s*)?$/.test(before) ||
    /(?:^|\n)#{1,6}\s+$/.test(before)
  );
}

/** The text with a maker's "'s" dropped where the maker and what follows make one of its products ("Sony's WH-1000XM6", "New Balance's Fresh Foam X 1080v14"). */
function withoutPossessives(text: string): string {
  return text.replace(/['’]s (?=[\p{L}\p{N}])/gu, (possessive, offset: number) => {
    const words = text.slice(Math.max(0, offset - 40), offset).split(/\s+/);
    const after = text.slice(offset + possessive.length, offset + possessive.length + 80);
    // The maker is the last one to three words before the "'s" ("Sony", "Capital One", "Bowers & Wilkins").
    for (let count = 1; count <= Math.min(3, words.length); count++) {
      const maker = words
        .slice(-count)
        .join(" ")
        .replace(/^[^\p{L}\p{N}]+/u, "");
      if (lookupName(maker)?.kind !== "company") continue;
      const [hit] = findNames(`${maker} ${after}`);
      if (hit?.index === 0 && hit.entry.kind === "product") return " ";
    }
    return possessive;
  });
}
