/**
 * Which category a query is about: its words (singular, synonyms folded) scored against each
 * category's keywords, longer phrases weighing more, plus the catalogue names it holds. The
 * query's head ("CRM" in "best CRM for real estate agents") decides first; the qualifier only
 * when the head says nothing, so "laptop for video editing" stays about laptops.
 */
import { isOrdinaryWord } from "#src/core/extraction/words.ts";
import { catalogue, type CatalogueProduct, type Category } from "./catalogue.ts";
import { findNames, lookupName, productsNamed, type NameHit, type Placement } from "./catalogue-names.ts";
import { PLACES } from "./knowledge.ts";
import { readNeed, type Need } from "./query.ts";

/** The category a query is about, if any. */
export function matchCategory(query: string): Category | undefined {
  const need = readNeed(query);
  return categoryFor(need, findNames(need.head)).category;
}

/** The best category for a need and the names found in its head, with the names found where it decided. */
export function categoryFor(need: Need, headNames: NameHit[], preferred: readonly Placement[] = []): { category?: Category; names: NameHit[] } {
  const head = scores(need.head, headNames, preferred);
  if (head.best) return { category: head.best, names: headNames };
  const wholeNames = findNames(need.text);
  return { category: scores(need.text, wholeNames, preferred).best, names: wholeNames };
}

/** Normalised words: lower case, accents folded, singular, synonyms mapped. */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]s\b/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .split(" ")
    .filter(Boolean)
    .flatMap((word) => (SYNONYMS[word] ?? singular(word)).split(" "));
}

/** Whether a normalised phrase occurs in normalised words, as whole words. */
export function holds(haystack: readonly string[], phrase: readonly string[]): boolean {
  return phrase.length > 0 && ` ${haystack.join(" ")} `.includes(` ${phrase.join(" ")} `);
}

/** Every product a typed name may stand for: the product, a company's products, or products holding its words. */
export function candidatesFor(typed: string): Placement[] {
  const entry = lookupName(typed) ?? longestHit(typed);
  if (entry) return entry.placements;
  const keyword = keywordProducts(typed);
  if (keyword.length > 0) return keyword;
  // Part of a product's name typed as a name ("Pegasus", "Zoom"), never an ordinary word ("coffee" is no OXO Brew).
  const named = soundsLikeName(typed) || /^\p{Lu}/u.test(typed.trim()) ? productsNamed(typed) : [];
  if (named.length > 0) return named;
  // A name with category words around it ("Sony headphones"): the name, when nothing else in it is one.
  const [hit] = findNames(typed);
  return hit && !soundsLikeName(typed.replace(hit.text, " ")) ? hit.entry.placements : [];
}

/** A category's own word for its leading products ("iPhone", "Mac"): its products with a word that starts so, most popular first. */
function keywordProducts(typed: string): Placement[] {
  const phrase = words(typed);
  if (phrase.length !== 1 || !phrase[0]) return [];
  const [word] = phrase;
  return catalogue
    .filter((category) => keywordPhrases.get(category)?.some((k) => k.length === 1 && k[0] === word))
    .flatMap((category) =>
      category.products
        .filter((p) =>
          p.name
            .toLowerCase()
            .split(/[\s-]+/)
            .some((w) => w.startsWith(word)),
        )
        .map((product) => ({ category, product })),
    )
    .sort((a, b) => b.product.popularity - a.product.popularity);
}

/**
 * What a typed name stands for: a product (exact, or the most popular holding its words) or a
 * company's most popular product, preferring the given category. Undefined when unknown.
 */
export function resolveName(typed: string, within?: Category): Placement | undefined {
  const ranked = [...candidatesFor(typed)].sort(
    (a, b) => Number(b.category === within) - Number(a.category === within) || b.product.popularity - a.product.popularity,
  );
  return ranked[0];
}

/**
 * Whether a typed phrase holds a word that can only be a name: not ordinary English, not a word
 * the catalogue's categories use, not a place, not a number ("Zorblax" in "Zorblax CRM").
 */
export function soundsLikeName(typed: string): boolean {
  return typed.split(/[\s/,&+]+/).some((token) => {
    const word = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (word.length < 3 || !/\p{L}/u.test(word) || /^\d/.test(word)) return false;
    const lower = word.toLowerCase();
    return !isOrdinaryWord(lower) && !isOrdinaryWord(singular(lower)) && !vocabulary.has(lower) && !vocabulary.has(singular(lower)) && !PLACES.has(lower);
  });
}

/** The tags of a category's products the query asks for ("budget" for any cheapness word). */
export function queryTags(need: Need): Set<string> {
  const haystack = words(need.text);
  const tags = new Set<string>();
  for (const tag of allTags) if (holds(haystack, words(tag))) tags.add(tag);
  if (need.budget) tags.add("budget");
  return tags;
}

/** How much a query favours a product: 1, or more for each of its tags the query has. */
export function tagBoost(product: CatalogueProduct, tags: ReadonlySet<string>): number {
  return 1 + 2 * product.tags.filter((tag) => tags.has(tag)).length;
}

// ---------------------------------------------------------------------------------------------

function scores(text: string, names: readonly NameHit[], preferred: readonly Placement[]): { best?: Category } {
  const haystack = words(text);
  let best: { category: Category; score: number; weight: number } | undefined;
  for (const category of catalogue) {
    let score = 0;
    for (const phrase of keywordPhrases.get(category) ?? []) if (holds(haystack, phrase)) score += 1 + 2 * phrase.length;
    // Each name counts for every category it occurs in; a tie goes to where the named products matter most.
    const named = [...names.flatMap((hit) => hit.entry.placements), ...preferred].filter((p) => p.category === category);
    score += 6 * new Set(named.map((p) => p.product.company)).size;
    const weight = named.reduce((sum, p) => sum + p.product.popularity, 0);
    if (score > 0 && (!best || score > best.score || (score === best.score && weight > best.weight))) best = { category, score, weight };
  }
  return { best: best?.category };
}

function longestHit(typed: string) {
  const [hit] = findNames(typed).sort((a, b) => b.text.length - a.text.length);
  return hit && hit.text.length * 2 >= typed.trim().length ? hit.entry : undefined;
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Spellings folded to the catalogue's ("canceling" → "cancelling"). */
const SYNONYMS: Record<string, string> = {
  canceling: "cancelling",
  cancellation: "cancelling",
  cancelation: "cancelling",
  colour: "color",
  earphone: "earbud",
  earphones: "earbud",
  cellphone: "cell phone",
  ereader: "e reader",
  ebook: "e book",
  ebike: "e bike",
  esim: "e sim",
  wifi: "wi fi",
  television: "tv",
  telly: "tv",
  cheapest: "cheap",
  cheaper: "cheap",
  antivirus: "anti virus",
  ecommerce: "e commerce",
  helpdesk: "help desk",
  airfryer: "air fryer",
  freelance: "freelancer",
  freelancing: "freelancer",
  insurer: "insurance",
  insurers: "insurance",
  headset: "headphone",
  headsets: "headphone",
};

// Deduplicated once normalised, so "phone" and "phones" count once.
const keywordPhrases = new Map(
  catalogue.map((category) => [category, [...new Set(category.keywords.map((k) => words(k).join(" ")))].map((k) => k.split(" "))]),
);
const allTags = [...new Set(catalogue.flatMap((c) => c.products.flatMap((p) => p.tags)))];
/** Words the catalogue's categories are described with: not names. */
const vocabulary = new Set(
  catalogue
    .flatMap((c) => [c.label, c.noun, ...c.keywords, ...c.uses, ...c.products.flatMap((p) => p.tags)])
    .flatMap((text) => [...text.toLowerCase().split(/[^\p{L}\p{N}]+/u), ...words(text)])
    .filter(Boolean),
);
