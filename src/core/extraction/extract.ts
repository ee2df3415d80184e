import type { JsonObjectSchema, StructuredRequest } from "../structured.ts";
import type { Company, Mention, Product } from "#src/contract/search-result.ts";
import { asArray, COMPANY_NAME_KEYS, isRecord, locateStructured, pick, PRODUCT_NAME_KEYS, type Span, structuredSpan } from "./answer-block.ts";
import { betterCasing, nameKey } from "../names.ts";
import { brandWordsOf, cleanName, isCategory, isFragment, isTitleCaseCategory } from "./noise.ts";
import { detailsSayNotFound, mentions, notFoundSubjects } from "./not-found.ts";
import { renumbered, spansOf, withMentions } from "./positions.ts";
import { possessiveRemover } from "./possessives.ts";
import { escapeRegExp, wholeWords } from "./whole-words.ts";

/**
 * Appended to the user's query after a blank line (see withExtractionInstructions). The answer
 * stays natural prose, which is what users compare; the JSON block at its end is what we parse.
 */
export const EXTRACTION_INSTRUCTIONS = `Answer the question above naturally and helpfully, using web search to find current information.

Then, at the very end of your reply, add a fenced \`\`\`json code block listing the products you actually recommend and the companies behind them, in exactly this shape:

\`\`\`json
{"products":[{"name":"...","rank":1,"details":"..."}],"companies":[{"name":"...","products":["..."]}]}
\`\`\`

Rules for the JSON block:
- products: only specific, named products or brands a shopper could look up by name, never categories or descriptions (a named model, not "wireless headphones" or "CRM software").
- rank: 1 for your top recommendation, then 2, 3 and so on, in the order you recommend them.
- details: one short sentence from your answer about that product.
- companies: the companies that make or sell those products, each with the names of its listed products.
- Leave out anything you could not find information about.
- If you found nothing specific, use empty arrays: {"products":[],"companies":[]}.
- Write nothing after the JSON block.`;

/** The prompt sent to each provider for `query`. */
export function withExtractionInstructions(query: string): string {
  return `${query.trim()}\n\n${EXTRACTION_INSTRUCTIONS}`;
}

/** The fallback call: the answer text, read back as products and companies in EXTRACTION_JSON_SCHEMA's shape. */
export function extractionRequest(answerText: string): StructuredRequest {
  return {
    name: "extraction",
    description: "Record the recommended products and the companies behind them.",
    // One line before the answer: the names as written let grounding (readExtraction) keep them.
    prompt: `List the products and companies this answer recommends. Write each name exactly as the answer writes it; leave out categories and anything the answer says it could not find.\n\n${answerText}`,
    schema: EXTRACTION_JSON_SCHEMA,
  };
}

/**
 * The shape of EXTRACTION_INSTRUCTIONS as JSON Schema, for the fallback extraction call: OpenAI
 * strict structured outputs (every key required, so optional values are nullable), an Anthropic
 * tool input_schema, and Gemini responseJsonSchema (which, unlike responseSchema, takes type lists).
 */
export const EXTRACTION_JSON_SCHEMA: JsonObjectSchema = {
  type: "object",
  properties: {
    products: {
      type: "array",
      description: "Specific named products or brands recommended in the answer, never generic categories.",
      items: {
        type: "object",
        properties: {
          name: { type: "string", description: "The product's proper name as the answer writes it, e.g. a brand plus model." },
          rank: { type: ["integer", "null"], description: "1 for the top recommendation, then 2, 3…; null if the answer gives no order." },
          details: { type: ["string", "null"], description: "One short sentence from the answer about this product; null if none." },
        },
        required: ["name", "rank", "details"],
        additionalProperties: false,
      },
    },
    companies: {
      type: "array",
      description: "The companies that make or sell those products.",
      items: {
        type: "object",
        properties: {
          name: { type: "string", description: "The company's name as the answer writes it." },
          products: { type: "array", items: { type: "string" }, description: "Names of this company's products listed above." },
        },
        required: ["name", "products"],
        additionalProperties: false,
      },
    },
  },
  required: ["products", "companies"],
  additionalProperties: false,
};

/**
 * Recovers the structured part of an answer: the LAST JSON object with a products or companies
 * key (any key case, e.g. "Products"), wherever it is — in a ```json or plain fence, after prose,
 * or followed by more text — read tolerantly (single or typographic quotes, trailing commas).
 * Failing that, the last top-level array of product-like objects counts as the products — never
 * an array inside an object, which would be part of a block that could not be read whole. In an
 * answer the provider cut short (`cut`), a block with a products or companies key after it means
 * the real block was cut, so nothing is used. Returns null when nothing can be recovered, so the
 * caller can make a fallback extraction call.
 */
export function parseStructuredAnswer(text: string, { cut = false } = {}): { products: unknown[]; companies: unknown[] } | null {
  const located = locateStructured(text);
  if (!located || (cut && STRUCTURED_KEY.test(text.slice(located.end)))) return null;
  return located.value;
}

/**
 * What an answer recommends, from the extractor's reply (`raw`, in EXTRACTION_JSON_SCHEMA's
 * shape; anything else reads as nothing): the noise rules (cleanExtraction), then where the
 * answer names each (withMentions), then grounding — a product or company the answer's prose
 * does not name (whole words, with withMentions' alias and casing rules; never inside a code
 * block) is the extractor's invention or misspelling: it is dropped and counted in `ungrounded`.
 * In an answer the provider cut (`cut`), a name whose only mention runs into the cut may be the
 * start of a longer one, so it is dropped as a fragment (not counted). Every kept item has its
 * `mention`.
 */
export function readExtraction(raw: unknown, answerText: string, { cut }: { cut: boolean }): { products: Product[]; companies: Company[]; ungrounded: number } {
  const value = isRecord(raw) ? { products: asArray(raw.products), companies: asArray(raw.companies) } : { products: [], companies: [] };
  const block = structuredSpan(answerText);
  const located = withMentions(cleanExtraction(value, answerText, block), answerText, { block, proseOnly: true });
  const end = cut ? answerText.trimEnd().length : Number.POSITIVE_INFINITY;
  const kept = <T extends { mention?: Mention }>(items: T[]) => items.filter((item) => item.mention !== undefined && item.mention.end < end);
  const products = withoutPieces(kept(located.products), answerText);
  // A company's list names only what the answer names: its kept products, or others the prose has.
  const listed = new Set(products.map((product) => nameKey(product.name)));
  const companies = kept(located.companies).map((company) => {
    const others = (company.products ?? []).filter((name) => !listed.has(nameKey(name))).map((name) => ({ name }));
    const named = new Set(kept(withMentions({ products: others, companies: [] }, answerText, { block, proseOnly: true }).products).map((p) => p.name));
    return { ...company, products: (company.products ?? []).filter((name) => listed.has(nameKey(name)) || named.has(name)) };
  });
  const ungrounded = [...located.products, ...located.companies].filter((item) => item.mention === undefined).length;
  return { products: reranked(renumbered(products)), companies: renumbered(mergedByName(companies)), ungrounded };
}

// The ranks the extractor gave, closed up over what was dropped: the list reads 1, 2, 3, not 1, 2, 4.
function reranked(products: Product[]): Product[] {
  const ranked = products.filter((product) => product.rank !== undefined).sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  return products.map((product) => (product.rank === undefined ? product : { ...product, rank: ranked.indexOf(product) + 1 }));
}

// A company renamed to the name the answer gives ("Nestlé Purina" → "Purina") meets the one listed so.
function mergedByName(companies: Company[]): Company[] {
  const byKey = new Map<string, Company>();
  for (const company of companies) {
    const seen = byKey.get(nameKey(company.name));
    if (!seen) byKey.set(nameKey(company.name), company);
    else seen.products = uniqueNames([...(seen.products ?? []), ...(company.products ?? [])]);
  }
  return [...byKey.values()];
}

/**
 * A product the answer writes only as part of a longer listed product ("Max Plus" only ever in
 * "Tapo RV30 Max Plus", "Apron" in "Blue Apron", "360 Performance Savings" in "Capital One 360
 * Performance Savings") is a piece of that name, not a product of its own. One the answer also
 * writes on its own elsewhere ("Notion" beside "Notion Calendar") stays.
 */
function withoutPieces(products: Product[], answerText: string): Product[] {
  const spans = new Map(products.map((product) => [product.name, spansOf(answerText, product.name)]));
  return products.filter((product) => {
    const own = spans.get(product.name) ?? [];
    const longer = products.filter(
      (other) => other.name.length > product.name.length && nameKey(other.name).includes(nameKey(product.name).replace(/\s*\([^)]*\)$/, "")),
    );
    const inside = longer.flatMap((other) => spans.get(other.name) ?? []);
    return own.length === 0 || !own.every((span) => inside.some((outer) => outer.start <= span.start && span.end <= outer.end));
  });
}

/**
 * Validated, de-noised products and companies from a raw extraction (parsed answer or fallback
 * call). Never throws; malformed entries are skipped. Products keep their given order. With
 * `answerText`, items the answer says it found nothing about are dropped too (rule e); `block`
 * is its structured block if the caller has located it (structuredSpan).
 */
export function cleanExtraction(
  raw: { products: unknown[]; companies: unknown[] },
  answerText?: string,
  block?: Span | null,
): { products: Product[]; companies: Company[] } {
  const subjects = answerText ? notFoundSubjects(proseOf(answerText, block === undefined ? structuredSpan(answerText) : block)) : [];
  const saysNotFound = (name: string) => subjects.some((subject) => mentions(subject, name, true));

  const rawProducts = asArray(raw?.products).flatMap((entry) => readProduct(entry) ?? []);
  const rawCompanies = [...asArray(raw?.companies), ...asArray(raw?.products).flatMap(companyOfProduct)].flatMap((entry) => readCompany(entry) ?? []);
  // Rule c inside names: "Acme's Rocket 3" is "Acme Rocket 3" when the answer knows Acme or that spelling.
  const unpossess = possessiveRemover(
    [...rawProducts.map((p) => p.name), ...rawCompanies.flatMap((c) => c.products)],
    rawCompanies.map((c) => c.name),
  );
  const brandWords = brandWordsOf(rawCompanies.map((company) => company.name));
  const prose = answerText ? proseOf(answerText, block === undefined ? structuredSpan(answerText) : block) : "";
  const inAnswer = {
    commonNoun: (word: string) => prose.search(wholeWords(escapeRegExp(word), "gu")) >= 0,
    // A line of its own: a markdown heading or a bold line ("## City Strollers", "**City Strollers**").
    heading: (name: string) =>
      prose.search(
        new RegExp(
          String.raw`^[^\S
]*(?:#{1,6}[^\S
]+|\*\*|__)${escapeRegExp(name)}(?:\*\*|__)?:?[^\S
]*$`,
          "imu",
        ),
      ) >= 0,
  };
  const notAProduct = (name: string) => isFragment(name) || isCategory(name, brandWords) || isTitleCaseCategory(name, brandWords, inAnswer);

  const products = new Map<string, Product>();
  const notFound = new Set<string>();
  const allProductKeys: string[] = [];
  for (const product of rawProducts.map((p) => ({ ...p, name: unpossess(p.name) }))) {
    if (notAProduct(product.name)) continue;
    const key = nameKey(product.name);
    allProductKeys.push(key);
    if ((product.details && detailsSayNotFound(product.details)) || saysNotFound(product.name)) {
      notFound.add(key);
      continue;
    }
    const seen = products.get(key);
    if (!seen) products.set(key, product);
    else mergeProduct(seen, product);
  }

  const companies = new Map<string, Company & { products: string[] }>();
  for (const company of rawCompanies) {
    const listed = company.products.map(unpossess);
    if (isFragment(company.name) || isCategory(company.name, brandWordsOf(listed))) continue;
    const key = nameKey(company.name);
    const ownKeys = listed.map(nameKey);
    for (const name of listed) if (saysNotFound(name)) notFound.add(nameKey(name));
    // A company whose listed products were all not found goes with them (rule e); one only
    // linked by name ("Zorblax" for "Zorblax Pro 9") goes when a not-found subject names it.
    const prefixed = allProductKeys.filter((productKey) => productKey.startsWith(`${key} `));
    const allNotFound = (keys: string[]) => keys.length > 0 && keys.every((productKey) => notFound.has(productKey));
    if (
      saysNotFound(company.name) ||
      allNotFound(ownKeys) ||
      (allNotFound([...ownKeys, ...prefixed]) && subjects.some((subject) => mentions(subject, company.name, false)))
    )
      continue;
    const kept = listed.filter((name) => !notAProduct(name) && !notFound.has(nameKey(name))).map((name) => products.get(nameKey(name))?.name ?? name);
    const seen = companies.get(key);
    if (!seen) companies.set(key, { name: company.name, products: uniqueNames(kept) });
    else {
      seen.name = betterCasing(seen.name, company.name);
      seen.products = uniqueNames([...seen.products, ...kept]);
    }
  }

  // A maker listed among the products beside its own fuller products ("Sony" beside "Sony
  // WH-1000XM6") is the company; one that is its company's only product (YNAB, Notion) stays.
  const makers = new Set(companies.keys());
  const keys = [...products.keys()];
  const isMaker = (key: string) => makers.has(key) && keys.some((other) => other.startsWith(`${key} `));
  for (const key of keys) if (isMaker(key)) products.delete(key);
  for (const company of companies.values()) company.products = company.products.filter((name) => products.has(nameKey(name)) || !isMaker(nameKey(name)));
  return { products: [...products.values()], companies: [...companies.values()] };
}

// ---------------------------------------------------------------------------------------------

// The answer without its JSON, so rule e reads what the model said, not what it listed.
function proseOf(answerText: string, located: Span | null): string {
  const text = located ? answerText.slice(0, located.start) + answerText.slice(located.end) : answerText;
  return text.replace(/```[^\n]*\n?[\s\S]*?(?:```|$)/g, " ");
}

function readProduct(entry: unknown): Product | null {
  if (typeof entry === "string") {
    const name = cleanName(entry);
    return name ? { name } : null;
  }
  if (!isRecord(entry)) return null;
  const rawName = pick(entry, PRODUCT_NAME_KEYS);
  if (typeof rawName !== "string") return null;
  const name = cleanName(rawName);
  if (!name) return null;
  const rank = toRank(pick(entry, RANK_KEYS));
  const details = toDetails(pick(entry, DETAILS_KEYS));
  return { name, ...(rank !== undefined ? { rank } : {}), ...(details ? { details } : {}) };
}

// A product entry that names its maker ({"product_name": "YNAB", "brand": "YNAB LLC"}) lists a company too.
function companyOfProduct(entry: unknown): unknown[] {
  if (!isRecord(entry)) return [];
  const maker = pick(entry, MAKER_KEYS);
  const name = pick(entry, PRODUCT_NAME_KEYS);
  return typeof maker === "string" ? [{ name: maker, products: typeof name === "string" ? [name] : [] }] : [];
}

function readCompany(entry: unknown): { name: string; products: string[] } | null {
  if (typeof entry === "string") {
    const name = cleanName(entry);
    return name ? { name, products: [] } : null;
  }
  if (!isRecord(entry)) return null;
  const rawName = pick(entry, COMPANY_NAME_KEYS);
  if (typeof rawName !== "string") return null;
  const name = cleanName(rawName);
  if (!name) return null;
  const listed = pick(entry, COMPANY_PRODUCT_KEYS);
  const products = (typeof listed === "string" ? [listed] : asArray(listed))
    .map((item) => (typeof item === "string" ? item : isRecord(item) ? pick(item, PRODUCT_NAME_KEYS) : undefined))
    .flatMap((item) => (typeof item === "string" ? cleanName(item) || [] : []));
  return { name, products };
}

// Rule d: the better-cased spelling, the best (lowest) rank, the first details.
function mergeProduct(into: Product, other: Product): void {
  into.name = betterCasing(into.name, other.name);
  if (other.rank !== undefined && (into.rank === undefined || other.rank < into.rank)) into.rank = other.rank;
  if (!into.details && other.details) into.details = other.details;
}

// Rule f: one entry per name, case-insensitively, in the better-cased spelling.
function uniqueNames(names: string[]): string[] {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const key = nameKey(name);
    byKey.set(key, betterCasing(byKey.get(key) ?? name, name));
  }
  return [...byKey.values()];
}

// Rule g: "2" → 2, "#1" → 1; zero, negative or unreadable → no rank.
function toRank(value: unknown): number | undefined {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\s*#?\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value.replace("#", "")) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function toDetails(value: unknown): string | undefined {
  const text = typeof value === "string" ? value : Array.isArray(value) ? value.filter((item) => typeof item === "string").join("; ") : "";
  return text.replace(/\s+/g, " ").trim() || undefined;
}

const STRUCTURED_KEY = /["'“‘]?(?:products|companies)["'”’]?\s*:/i;
const COMPANY_PRODUCT_KEYS = ["products", "productnames", "product", "productlist", "models"];
const MAKER_KEYS = ["brand", "brandname", "company", "companyname", "manufacturer", "maker", "madeby"];
const RANK_KEYS = ["rank", "ranking", "position", "order", "place"];
const DETAILS_KEYS = ["details", "detail", "description", "desc", "reason", "reasoning", "notes", "note", "summary", "why"];
