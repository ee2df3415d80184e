import { readJsonValue } from "./lenient-json.ts";

/*
 * Where the structured block an answer ends with (EXTRACTION_INSTRUCTIONS asks for it) sits in
 * the answer's text, and how its keys are read. Light enough for the browser, which shows the
 * answer without it (answerProse); extract.ts reads the block's value.
 */

export type StructuredValue = { products: unknown[]; companies: unknown[] };
export type Span = { start: number; end: number };

/**
 * Where the structured block parseStructuredAnswer reads sits in the text, if any. One scan of
 * the text's "{" and "[": a caller that reads the same answer several times (cleanExtraction,
 * withMentions) computes it once and passes it on.
 */
export function structuredSpan(text: string): Span | null {
  const located = locateStructured(text);
  return located ? { start: located.start, end: located.end } : null;
}

/**
 * The answer as the person asked for it: without the structured block the product asked for,
 * its ``` fence, and a short line introducing it ("Here is the structured summary:"). An answer
 * without a block comes back as it is.
 */
export function answerProse(text: string): string {
  const span = structuredSpan(text);
  if (!span) return text;
  let start = span.start;
  let end = span.end;
  const fenceOpen = /```[a-z]*[ \t]*\r?\n[ \t]*$/i.exec(text.slice(0, start));
  const fenceClose = /^[ \t]*\r?\n?[ \t]*```/.exec(text.slice(end));
  if (fenceOpen && fenceClose) {
    start = fenceOpen.index;
    end += fenceClose[0].length;
  }
  const before = text.slice(0, start).replace(/\s+$/, "");
  const lead = /(?:^|\n)([^\n]{1,80}:)[ \t]*$/.exec(before);
  const kept = lead && !/^\s*[-*+]|^\s*\d+[.)]/.test(lead[1] ?? "") ? before.slice(0, lead.index) : before;
  const after = text.slice(end).replace(/^\s+/, "");
  return after ? `${kept.replace(/\s+$/, "")}\n\n${after}` : kept.replace(/\s+$/, "");
}

// Keys compared without case or punctuation: "Products", "product_name", "productName" all match.
export function pick(record: Record<string, unknown>, keys: readonly string[]): unknown {
  const canonical = new Map<string, unknown>();
  for (const [key, value] of Object.entries(record)) {
    const bare = key.toLowerCase().replace(/[^a-z0-9]/g, "");
    if (!canonical.has(bare)) canonical.set(bare, value);
  }
  for (const key of keys) if (canonical.has(key)) return canonical.get(key);
  return undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const PRODUCT_NAME_KEYS = ["name", "productname", "product", "title", "model", "productmodel"];
export const COMPANY_NAME_KEYS = ["name", "companyname", "company", "brand", "brandname", "manufacturer"];
// Plural keys only: a single {"product": "X"} entry must not pass for the whole block.
const PRODUCT_LIST_KEYS = ["products", "productlist", "recommendedproducts", "topproducts", "recommendations"];
const COMPANY_LIST_KEYS = ["companies", "companylist", "brands", "brandsmentioned", "manufacturers"];

// Scans backwards so the last block wins (models sometimes show an example first) and a nested
// {"products": …} is found before its wrapper. Each candidate is read strictly, then tolerantly.
export function locateStructured(text: string): ({ value: StructuredValue } & Span) | null {
  for (let i = text.lastIndexOf("{"); i >= 0; i = i === 0 ? -1 : text.lastIndexOf("{", i - 1)) {
    const read = readAt(text, i);
    // A named object is an entry — {"name": "Sony", "products": [...]} is a company, not the block.
    if (read && isRecord(read.value) && typeof pick(read.value, COMPANY_NAME_KEYS) !== "string") {
      const products = pick(read.value, PRODUCT_LIST_KEYS);
      const companies = pick(read.value, COMPANY_LIST_KEYS);
      if (Array.isArray(products) || Array.isArray(companies)) {
        return { value: { products: asArray(products), companies: asArray(companies) }, start: i, end: read.end };
      }
    }
  }
  for (let i = text.lastIndexOf("["); i >= 0; i = i === 0 ? -1 : text.lastIndexOf("[", i - 1)) {
    if (/:\s*$/.test(text.slice(Math.max(0, i - 40), i))) continue;
    const read = readAt(text, i);
    if (read && Array.isArray(read.value) && isProductArray(read.value)) {
      return { value: { products: read.value, companies: [] }, start: i, end: read.end };
    }
  }
  return null;
}

function readAt(text: string, start: number): { value: unknown; end: number } | null {
  return readJsonValue(text, start, "strict") ?? readJsonValue(text, start, "lenient");
}

// An array counts as products when most entries are objects carrying a name.
function isProductArray(items: unknown[]): boolean {
  const named = items.filter((item) => isRecord(item) && typeof pick(item, PRODUCT_NAME_KEYS) === "string").length;
  return named > 0 && named * 2 >= items.length;
}
