/**
 * The simulators' knowledge: product categories with the products a model would name and the
 * publisher pages a web search would retrieve, gathered from the data files in `catalogue/`.
 * Real brands and publishers; paths and titles are plausible, not verified links. `popularity`
 * (1–10) drives how often a product is picked; `tags` are words of a query that favour it.
 */
import { businessSoftware } from "./catalogue/business.ts";
import type { Category, CatalogueProduct, SourcePage } from "./catalogue/data.ts";
import { hostOf } from "./catalogue/domains.ts";
import { electronics } from "./catalogue/electronics.ts";
import { finance } from "./catalogue/finance.ts";
import { gadgets } from "./catalogue/gadgets.ts";
import { home } from "./catalogue/home.ts";
import { kitchen } from "./catalogue/kitchen.ts";
import { lifestyle } from "./catalogue/lifestyle.ts";
import { services } from "./catalogue/services.ts";
import { software } from "./catalogue/software.ts";
import { teamwork } from "./catalogue/teamwork.ts";
import { travel } from "./catalogue/travel.ts";

export type { Category, CatalogueProduct, SourcePage };

export const catalogue: readonly Category[] = [
  ...businessSoftware,
  ...teamwork,
  ...software,
  ...electronics,
  ...gadgets,
  ...home,
  ...kitchen,
  ...lifestyle,
  ...services,
  ...finance,
  ...travel,
].map(
  (data): Category => ({
    ...data,
    business: data.business === true,
    keywords: [...new Set([data.label, data.noun, ...data.keywords].map((k) => k.toLowerCase()))],
    products: data.products.map(([name, company, popularity, details, tags = []]) => ({ name, company, popularity, details, tags })),
    sources: data.sources.map(([url, title]) => ({ url, title })),
  }),
);

/** Publisher domain of a page ("rtings.com"), as Gemini's grounding chunks title it. */
export function publisherDomain(url: string): string {
  return new URL(url).hostname.replace(/^www\./, "");
}

/** The product's own page on its company's site, when the company's domain is known. */
export function productPage(product: CatalogueProduct): SourcePage | undefined {
  const host = hostOf(product.company, product.name);
  if (!host) return undefined;
  const model = product.name.startsWith(`${product.company} `) ? product.name.slice(product.company.length + 1) : product.name;
  if (model === product.company) return { url: `https://${host}/`, title: `${product.company} | Official Site` };
  return { url: `https://${host}/products/${slug(model)}`, title: `${product.name} | ${product.company}` };
}

/** "Nike Pegasus 41" → "nike-pegasus-41". */
export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
