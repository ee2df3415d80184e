/**
 * The mistakes a small extraction model makes. At the `extractorErrors` rate (the probability
 * per extraction call; 0 by default, DEMO_EXTRACTOR_ERRORS in the keyless demo), the call's
 * answer carries exactly one mistake, its kind drawn uniformly from those the answer allows
 * (none for an answer that names nothing and leaves out nothing it couldn't find):
 *
 * - `invented`: a product the answer never names (a rival from the same catalogue category, or a
 *   made-up name when every rival is named), only when the answer recommends something.
 * - `category`: the answer's category in title case ("Robot Vacuums") listed first, as a product.
 * - `fragment`: a product's name with the answer's words after it ("Hoka Clifton 9: Plush, …")
 *   or the "and" of a list it split ("and Hoka Clifton 9"), in place of the name.
 * - `possessive`: "Sony's WH-1000XM6" in place of "Sony WH-1000XM6" (a name that starts with its maker).
 * - `not_found`: a name the answer says it couldn't find ("couldn't find reliable information
 *   about Zorblax", a "Pro Max" it heard of but left out), listed as a product.
 * - `misspelt`: a product's name with two letters of one word swapped ("Roborcok S8"), in its place.
 * - `company_as_product`: a product's maker listed as a product too ("Sony").
 *
 * Their own seeded randomness (index.ts), so a seed reproduces them and they never change the answers.
 */
import type { ExtractedProduct, Extraction } from "./extract.ts";
import { escapeRegExp, wholeWordPattern } from "#src/core/extraction/whole-words.ts";
import { lookupName } from "./catalogue-names.ts";
import type { Rng } from "./random.ts";

export type ExtractorMistake = "invented" | "category" | "fragment" | "possessive" | "not_found" | "misspelt" | "company_as_product";

export const EXTRACTOR_MISTAKES: readonly ExtractorMistake[] = [
  "invented",
  "category",
  "fragment",
  "possessive",
  "not_found",
  "misspelt",
  "company_as_product",
];

/** `clean` (what the answer really recommends), with one mistake at `rate`; `text` is the answer the call was given. */
export function withMistakes(clean: Extraction, text: string, errors: { rate: number; rng: Rng }): Extraction {
  if (errors.rate <= 0 || !errors.rng.chance(errors.rate)) return clean;
  const { rng } = errors;
  const options = EXTRACTOR_MISTAKES.flatMap((kind) => MAKERS[kind](clean, text, rng) ?? []);
  // An answer with no names and no "couldn't find" leaves a small model nothing to get wrong.
  return options.length > 0 ? renumbered(rng.pick(options)) : clean;
}

// ---------------------------------------------------------------------------------------------

type Maker = (clean: Extraction, text: string, rng: Rng) => Extraction | undefined;

const MAKERS: Record<ExtractorMistake, Maker> = {
  invented: (clean, text, rng) => {
    // From an answer that recommends nothing, even a small model lists nothing.
    if (clean.products.length === 0) return undefined;
    const rivals = categoryOf(clean)?.products.filter((p) => !occurs(text, p.name)) ?? [];
    const rival = rivals.length > 0 ? rng.pick(rivals) : undefined;
    const name = rival?.name ?? madeUpName(text, rng);
    return added(clean, { name, rank: 0, details: rival?.details ?? "A well-reviewed option worth considering." }, rival?.company, clean.products.length);
  },
  category: (clean) => {
    const category = categoryOf(clean);
    if (!category) return undefined;
    return added(clean, { name: titleCase(category.label), rank: 0, details: `The ${category.label} the answer recommends.` }, undefined, 0);
  },
  fragment: (clean, _text, rng) => {
    const product = pickProduct(clean, rng);
    if (!product) return undefined;
    const name = rng.chance(0.5) ? `${product.name}: ${product.details.split(/[,.;]/)[0]}` : `and ${product.name}`;
    return renamed(clean, product.name, name);
  },
  possessive: (clean, _text, rng) => {
    const owned = clean.products.flatMap((product) => {
      const company = clean.companies.find((c) => c.products.includes(product.name))?.name;
      return company && product.name.startsWith(`${company} `) && !/'s$/i.test(company) ? [{ product, company }] : [];
    });
    if (owned.length === 0) return undefined;
    const { product, company } = rng.pick(owned);
    return renamed(clean, product.name, `${company}'s ${product.name.slice(company.length + 1)}`);
  },
  not_found: (clean, text, rng) => {
    const listed = new Set(clean.products.map((p) => p.name.toLowerCase()));
    const ghosts = notFoundNames(text).filter((name) => !listed.has(name.toLowerCase()));
    if (ghosts.length === 0) return undefined;
    return added(clean, { name: rng.pick(ghosts), rank: 0, details: "Mentioned in the answer." }, undefined, clean.products.length);
  },
  misspelt: (clean, text, rng) => {
    const candidates = clean.products.flatMap((product) => {
      const misspelt = misspell(product.name, rng);
      return misspelt && !occurs(text, misspelt) ? [{ product, misspelt }] : [];
    });
    if (candidates.length === 0) return undefined;
    const { product, misspelt } = rng.pick(candidates);
    return renamed(clean, product.name, misspelt);
  },
  company_as_product: (clean, _text, rng) => {
    const makers = clean.companies.filter((c) => c.products.length > 0 && !clean.products.some((p) => p.name.toLowerCase() === c.name.toLowerCase()));
    if (makers.length === 0) return undefined;
    const company = rng.pick(makers);
    const at = clean.products.findIndex((p) => company.products.includes(p.name));
    return added(clean, { name: company.name, rank: 0, details: `Maker of ${company.products.join(" and ")}.` }, undefined, Math.max(0, at));
  },
};

/** The catalogue category of the answer's first product (undefined when it names none). */
function categoryOf(clean: Extraction) {
  const [first] = clean.products;
  return first ? lookupName(first.name)?.placements[0]?.category : undefined;
}

function pickProduct(clean: Extraction, rng: Rng): ExtractedProduct | undefined {
  return clean.products.length > 0 ? rng.pick(clean.products) : undefined;
}

/** `product` inserted at `at` (and its company's list, the company added when new). */
function added(clean: Extraction, product: ExtractedProduct, company: string | undefined, at: number): Extraction {
  const products = [...clean.products.slice(0, at), product, ...clean.products.slice(at)];
  if (!company) return { products, companies: clean.companies };
  const known = clean.companies.some((c) => c.name === company);
  const companies = known
    ? clean.companies.map((c) => (c.name === company ? { ...c, products: [...c.products, product.name] } : c))
    : [...clean.companies, { name: company, products: [product.name] }];
  return { products, companies };
}

/** One product's name replaced everywhere it is listed. */
function renamed(clean: Extraction, from: string, to: string): Extraction {
  return {
    products: clean.products.map((p) => (p.name === from ? { ...p, name: to } : p)),
    companies: clean.companies.map((c) => ({ ...c, products: c.products.map((name) => (name === from ? to : name)) })),
  };
}

function renumbered(extraction: Extraction): Extraction {
  return { ...extraction, products: extraction.products.map((p, i) => ({ ...p, rank: i + 1 })) };
}

/**
 * What the answer says it couldn't find: the names after "couldn't find reliable information
 * about" (either of "either A or B"), and a quoted name in a sentence that says it couldn't find it.
 * Not "couldn't find current stock levels for X": X is still recommended.
 */
export function notFoundNames(text: string): string[] {
  const names: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    if (!/couldn't find/i.test(sentence)) continue;
    const about = /couldn't find (?:any )?reliable information about (?:either )?(.+?)(?:,|\.|$)/i.exec(sentence)?.[1];
    if (about && about !== "it") names.push(...about.split(/\s+or\s+/));
    for (const quoted of sentence.matchAll(/"([^"]{2,60})"/g)) if (quoted[1]) names.push(quoted[1]);
  }
  return [...new Set(names.map((name) => name.trim()).filter(Boolean))];
}

/** Two adjacent inner letters of the name's longest plain word swapped ("Roborock" → "Roborcok"), else undefined. */
function misspell(name: string, rng: Rng): string | undefined {
  const words = name.split(" ");
  const longest = words.reduce((best, word, i) => (/^\p{L}{5,}$/u.test(word) && word.length > (words[best]?.length ?? 0) ? i : best), -1);
  const word = words[longest];
  if (!word || !/^\p{L}{5,}$/u.test(word)) return undefined;
  const at = rng.int(1, word.length - 3);
  const swapped = `${word.slice(0, at)}${word[at + 1]}${word[at]}${word.slice(at + 2)}`;
  if (swapped === word) return undefined;
  return words.map((w, i) => (i === longest ? swapped : w)).join(" ");
}

/** A product name no catalogue holds and the text does not contain. */
function madeUpName(text: string, rng: Rng): string {
  for (;;) {
    const name = `${rng.pick(INVENTED_BRANDS)} ${rng.pick(INVENTED_MODELS)}`;
    if (!occurs(text, name) && !lookupName(name)) return name;
  }
}

const INVENTED_BRANDS = ["Veltra", "Norvik", "Quorra", "Lumetta", "Brightwell", "Ostara", "Kestrel"];
const INVENTED_MODELS = ["X2", "Pro 5", "Air 3", "One", "Max 7", "Lite"];

/** Whether the text names it, as whole words in any case. */
function occurs(text: string, name: string): boolean {
  return wholeWordPattern(escapeRegExp(name), "giu").test(text);
}

/** "robot vacuums" → "Robot Vacuums", "CRM software" → "CRM Software". */
function titleCase(label: string): string {
  return label.replace(/(^|[\s-])(\p{Ll})/gu, (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`);
}
