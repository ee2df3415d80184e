/**
 * What the extraction fallback "model" returns: the catalogue's product and company names found
 * in a text (case-insensitive, whole words, longest name first), in order of appearance.
 */
import { catalogue, type CatalogueProduct } from "./catalogue.ts";

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

type Entry = { kind: "product"; product: CatalogueProduct } | { kind: "company"; name: string };

const entries = new Map<string, Entry>();
for (const category of catalogue) {
  for (const product of category.products) {
    if (!entries.has(product.name.toLowerCase())) entries.set(product.name.toLowerCase(), { kind: "product", product });
  }
}
for (const category of catalogue) {
  for (const product of category.products) {
    if (!entries.has(product.company.toLowerCase())) entries.set(product.company.toLowerCase(), { kind: "company", name: product.company });
  }
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const alternation = [...entries.keys()].sort((a, b) => b.length - a.length).map(escape).join("|");
const namePattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternation})(?![\\p{L}\\p{N}])`, "giu");

/** Whether a name is some catalogue product's name (case-insensitive). */
export function isProductName(name: string): boolean {
  return entries.get(name.toLowerCase())?.kind === "product";
}

export function extractCatalogueNames(text: string): Extraction {
  const products: ExtractedProduct[] = [];
  const companies = new Map<string, ExtractedCompany>();
  const addCompany = (name: string): ExtractedCompany => {
    const existing = companies.get(name);
    if (existing) return existing;
    const company = { name, products: [] };
    companies.set(name, company);
    return company;
  };
  for (const match of text.matchAll(namePattern)) {
    const entry = entries.get(match[0].toLowerCase());
    if (!entry) continue;
    if (entry.kind === "company") {
      addCompany(entry.name);
      continue;
    }
    const { product } = entry;
    if (products.some((p) => p.name === product.name)) continue;
    products.push({ name: product.name, rank: products.length + 1, details: product.details });
    addCompany(product.company).products.push(product.name);
  }
  return { products, companies: [...companies.values()] };
}
