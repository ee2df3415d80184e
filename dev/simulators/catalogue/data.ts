/** The catalogue's types: a Category as the simulators read it, and the rows the data files are written in (catalogue.ts turns one into the other). */

export interface CatalogueProduct {
  name: string;
  company: string;
  details: string;
  popularity: number;
  /** Query words that make it a likelier pick ("family", "budget"). */
  tags: string[];
}

export interface SourcePage {
  url: string;
  title: string;
}

export interface Category {
  id: string;
  /** Plural noun phrase used in prose ("running shoes"). */
  label: string;
  /** How people type the need ("CRM", "running shoes"). */
  noun: string;
  /** One sentence saying what it is, for "what is a …" questions. */
  about: string;
  /** Words and phrases that identify a query about this category (its label and noun included). */
  keywords: string[];
  /** Uses that narrow the need ("for flat feet"), for query variants. */
  uses: string[];
  /** A price cap people type ("under $100"). */
  price: string;
  /** Whether businesses buy it (a small-business persona fits). */
  business: boolean;
  products: CatalogueProduct[];
  sources: SourcePage[];
}

/** A product as the data files write it. */
export type ProductRow = [name: string, company: string, popularity: number, details: string, tags?: string[]];

/** A category as the data files write it: Category's fields, with products and pages as rows. */
export type CategoryData = Omit<Category, "business" | "products" | "sources"> & {
  business?: true;
  products: ProductRow[];
  sources: [url: string, title: string][];
};
