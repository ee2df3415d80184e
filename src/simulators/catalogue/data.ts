/** The shape the catalogue's data files are written in (catalogue.ts turns it into Category). */

/** A product as the data files write it. */
export type ProductRow = [name: string, company: string, popularity: number, details: string, tags?: string[]];

/** A category as the data files write it. */
export interface CategoryData {
  id: string;
  label: string;
  noun: string;
  about: string;
  keywords: string[];
  uses: string[];
  price: string;
  business?: true;
  products: ProductRow[];
  sources: [url: string, title: string][];
}
