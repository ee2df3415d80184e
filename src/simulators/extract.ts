/**
 * What the extraction fallback "model" returns: the catalogue's product and company names found
 * in a text (catalogue-names.ts), in order of appearance.
 */
import { findNames } from "./catalogue-names.ts";

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

export function extractCatalogueNames(text: string): Extraction {
  const products: ExtractedProduct[] = [];
  const companies = new Map<string, ExtractedCompany>();
  const companyNamed = (name: string): ExtractedCompany => {
    const company = companies.get(name) ?? { name, products: [] };
    companies.set(name, company);
    return company;
  };
  for (const { entry } of findNames(text)) {
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
