/**
 * What an answer will say before it is written: the products it recommends (a popularity-
 * weighted random pick in a slightly perturbed order, so iterations differ realistically), the
 * pages a search would find, and what the model would type into the search box.
 */
import { productPage, slug, type CatalogueProduct, type Category, type SourcePage } from "./catalogue.ts";
import type { Intent, Side } from "./intent.ts";
import { queryTags, tagBoost } from "./matching.ts";
import type { Need } from "./query.ts";
import type { Rng } from "./random.ts";

export interface RankedProduct extends CatalogueProduct {
  rank: number;
}

export interface Plan {
  category?: Category;
  /** The recommendations, in rank order (empty for a plain or generic answer). */
  products: RankedProduct[];
  /** Pages a search would retrieve, most relevant first. */
  pages: SourcePage[];
  /** Whether the answer cites what it found (an honest "couldn't find" cites nothing). */
  cite: boolean;
  /** Whether the model searches at all (not for a greeting). */
  search: boolean;
  /** Searches the model might run besides the query itself. */
  searches: string[];
}

/** How much an answer favours a product over the catalogue's popularity (1: not at all): its provider's taste, and its run's lean. */
export type Taste = (product: CatalogueProduct) => number;

export function planAnswer(rng: Rng, need: Need, intent: Intent, taste: Taste = () => 1): Plan {
  const year = new Date().getFullYear();
  const core = need.core.toLowerCase();
  switch (intent.kind) {
    case "plain": {
      const { sources } = intent.reply;
      const greeting = sources.length === 0 && !need.question && need.text.split(" ").length <= 3;
      return {
        products: [],
        pages: sources.length > 0 ? sources : searchPages(need.text),
        cite: sources.length > 0,
        search: !greeting,
        searches: [`${core} explained`, `${core} answer`],
      };
    }
    case "category": {
      const { category, featured, brands } = intent;
      const products = pick(rng, category.products, { tags: queryTags(need), featured, brands, taste, count: rng.int(5, 9) });
      return {
        category,
        products,
        pages: [...pagesOf(products.slice(0, 3)), ...category.sources],
        cite: true,
        search: true,
        searches: categorySearches(core, category, year),
      };
    }
    case "versus":
      return versusPlan(rng, need, intent.sides, intent.category, year, taste);
    case "alternatives": {
      const { category, side } = intent;
      const x = side.placement?.product;
      const excluded = (p: CatalogueProduct) => p === x || (x !== undefined && side.typed.toLowerCase() === x.company.toLowerCase() && p.company === x.company);
      const products = category
        ? pick(
            rng,
            category.products.filter((p) => !excluded(p)),
            { tags: queryTags(need), taste, count: x ? rng.int(4, 7) : rng.int(3, 5) },
          )
        : [];
      const name = x?.name ?? side.typed;
      const pages = [
        ...(x && category ? [alternativesPage(name, category)] : []),
        ...pagesOf(products.slice(0, 2)),
        ...(category?.sources ?? searchPages(`${name} alternatives`)),
      ];
      return {
        category,
        products,
        pages,
        cite: x !== undefined,
        search: true,
        searches: [`${name} alternatives`, `best ${name} alternatives ${year}`, `${name} competitors`, `apps like ${name}`],
      };
    }
    case "unknown": {
      const { category, name } = intent;
      const products = category ? pick(rng, category.products, { tags: queryTags(need), taste, count: rng.int(3, 5) }) : [];
      return {
        category,
        products,
        pages: [...searchPages(name), ...(category?.sources ?? [])],
        cite: false,
        search: true,
        searches: [`${name}`, `${name} reviews`, `${name} official site`, `what is ${name}`],
      };
    }
    case "generic":
      return {
        products: [],
        pages: searchPages(intent.topic),
        cite: false,
        search: true,
        searches: [`best ${intent.topic} ${year}`, `${intent.topic} reviews`, `${intent.topic} reddit`, `${intent.topic} buying guide`],
      };
  }
}

// ---------------------------------------------------------------------------------------------

/** Both sides when known, in a perturbed order of popularity, and now and then a rival or two. */
function versusPlan(rng: Rng, need: Need, sides: Side[], category: Category | undefined, year: number, taste: Taste): Plan {
  const known = sides.flatMap((side) => (side.placement ? [side.placement.product] : []));
  const ranked = rankByPopularity(rng, [...new Set(known)], { brands: new Set(), tags: new Set(), taste });
  const extra =
    category && known.length > 0 && rng.chance(0.3)
      ? pick(
          rng,
          category.products.filter((p) => !known.includes(p)),
          { tags: queryTags(need), taste, count: rng.int(1, 2) },
        )
      : [];
  const products = [...ranked, ...extra].map((product, index) => ({ ...product, rank: index + 1 }));
  const [a, b] = sides.map((side) => side.placement?.product.name ?? side.typed);
  const comparison = category && a && b && known.length >= 2 ? [comparisonPage(a, b, category)] : [];
  const pages = [
    ...comparison,
    ...pagesOf(known),
    ...(category?.sources ?? []),
    ...(known.length < sides.length ? searchPages(sides.map((s) => s.typed).join(" vs ")) : []),
  ];
  const searches =
    a && b ? [`${a} vs ${b}`, `${a} vs ${b} ${year}`, `${a} vs ${b} reddit`, `${a} pricing`, `${b} pricing`, `${a} or ${b} which is better`] : [];
  return { category, products, pages, cite: known.length > 0, search: true, searches };
}

/** count of the products, weighted by popularity and the query's tags and brands; featured ones first. */
function pick(
  rng: Rng,
  all: readonly CatalogueProduct[],
  options: { tags: ReadonlySet<string>; featured?: readonly CatalogueProduct[]; brands?: readonly string[]; taste: Taste; count: number },
): RankedProduct[] {
  const featured = (options.featured ?? []).filter((p) => all.includes(p));
  const favour = { brands: new Set(options.brands ?? []), tags: options.tags, taste: options.taste };
  const rest = all.filter((p) => !featured.includes(p));
  const count = Math.max(0, Math.min(options.count, all.length) - featured.length);
  const sampled = rng.weightedSample(rest, (p) => Math.pow(weight(p, favour), 1.6), count);
  const ranked = [...featured, ...rankByPopularity(rng, sampled, favour)];
  return ranked.map((product, index) => ({ ...product, rank: index + 1 }));
}

interface Favour {
  brands: ReadonlySet<string>;
  tags: ReadonlySet<string>;
  taste: Taste;
}

/** Popularity, boosted by the query's tags and brands and by the provider's taste. */
function weight(product: CatalogueProduct, favour: Favour): number {
  return product.popularity * tagBoost(product, favour.tags) * (favour.brands.has(product.company) ? 4 : 1) * favour.taste(product);
}

/** Ranked by weight with multiplicative noise. */
function rankByPopularity(rng: Rng, products: readonly CatalogueProduct[], favour: Favour): CatalogueProduct[] {
  return products
    .map((product) => ({ product, score: weight(product, favour) * Math.exp(0.35 * rng.normal()) }))
    .sort((a, b) => b.score - a.score)
    .map(({ product }) => product);
}

function pagesOf(products: readonly CatalogueProduct[]): SourcePage[] {
  return products.flatMap((product) => productPage(product) ?? []);
}

function categorySearches(core: string, category: Category, year: number): string[] {
  const bare = core.replace(/^(?:what are |what is |which )?(?:the )?(?:best|top|good)\s+/, "") || core;
  return [
    `best ${bare} ${year}`,
    `${bare} reviews`,
    `${bare} comparison`,
    `top rated ${category.label} ${year}`,
    `${bare} reddit recommendations`,
    `${category.label} buying guide`,
    `most popular ${category.label}`,
    `${bare} expert picks`,
  ];
}

/** A head-to-head page: G2 for business software, else the category's lead publisher. */
function comparisonPage(a: string, b: string, category: Category): SourcePage {
  const origin = category.business ? "https://www.g2.com" : new URL(category.sources[0]?.url ?? "https://www.reddit.com").origin;
  const publisher = category.business ? "G2" : new URL(origin).hostname.replace(/^www\./, "");
  return { url: `${origin}/compare/${slug(a)}-vs-${slug(b)}`, title: `${a} vs ${b}: Which Is Better in ${new Date().getFullYear()}? | ${publisher}` };
}

function alternativesPage(name: string, category: Category): SourcePage {
  if (category.business)
    return { url: `https://www.g2.com/products/${slug(name)}/competitors/alternatives`, title: `Top 10 ${name} Alternatives & Competitors | G2` };
  const origin = new URL(category.sources[0]?.url ?? "https://www.reddit.com").origin;
  return { url: `${origin}/best-${slug(name)}-alternatives/`, title: `The Best ${name} Alternatives | ${new URL(origin).hostname.replace(/^www\./, "")}` };
}

/** Result pages a search for words the catalogue does not know would land on. */
function searchPages(topic: string): SourcePage[] {
  const q = encodeURIComponent(topic);
  return [
    { url: `https://www.reddit.com/search/?q=${q}`, title: `${topic} - Reddit` },
    { url: `https://en.wikipedia.org/w/index.php?search=${q}`, title: `Search results for "${topic}" - Wikipedia` },
    { url: `https://www.youtube.com/results?search_query=${q}`, title: `${topic} - YouTube` },
    { url: `https://www.consumerreports.org/search/?query=${q}`, title: `Search results for ${topic} | Consumer Reports` },
  ];
}
