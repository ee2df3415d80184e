/**
 * What kind of answer a query gets. Not about products ("what is the capital of France", "how do
 * I boil an egg", "hi") → a plain answer. "A vs B" → a comparison of A and B; "alternatives to
 * X" → X's rivals; "X reviews" → X, or an honest "couldn't find X" when X is unknown; a query in
 * a category → that category's picks, with the products and brands it names first; any other
 * product question → an honest answer built around its own words, never another category's list.
 */
import type { CatalogueProduct, Category } from "./catalogue.ts";
import { findNames, type NameHit, type Placement } from "./catalogue-names.ts";
import { knownReply, unknownReply, type PlainReply } from "./knowledge.ts";
import { candidatesFor, categoryFor, holds, resolveName, soundsLikeName, words } from "./matching.ts";
import { readNeed, type Need } from "./query.ts";

/** One name of a comparison, and what it stands for when the catalogue knows it. */
export interface Side {
  typed: string;
  placement?: Placement;
}

export type Intent =
  | { kind: "plain"; reply: PlainReply }
  | { kind: "category"; category: Category; featured: CatalogueProduct[]; brands: string[] }
  | { kind: "versus"; category?: Category; sides: Side[] }
  | { kind: "alternatives"; category?: Category; side: Side }
  | { kind: "unknown"; category?: Category; name: string }
  | { kind: "generic"; topic: string };

export function readIntent(query: string): { need: Need; intent: Intent } {
  const need = readNeed(query);
  return { need, intent: intentOf(need) };
}

// ---------------------------------------------------------------------------------------------

function intentOf(need: Need): Intent {
  const known = knownReply(need);
  if (known) return { kind: "plain", reply: known };
  const named =
    (need.versus.length >= 2 && versusOf(need)) ||
    (need.alternativesTo && alternativesOf(need, need.alternativesTo)) ||
    (need.subject && subjectOf(need, need.subject));
  if (named) return named;

  const { category, names } = categoryFor(need, findNames(need.head));
  if (need.question && !need.wantsProducts && (names.length === 0 || WH_QUESTION.test(need.text))) {
    return { kind: "plain", reply: definitionOf(need, category) ?? unknownReply(need) };
  }
  if (category) return { kind: "category", category, ...focusOf(names, category) };
  if (need.question && !need.wantsProducts) return { kind: "plain", reply: unknownReply(need) };
  if (!need.wantsProducts && need.head.split(" ").length <= 3 && soundsLikeName(need.head)) return { kind: "unknown", name: need.head };
  return { kind: "generic", topic: need.head || need.text };
}

/** "A vs B": the category where the names meet, each side resolved there. */
function versusOf(need: Need): Intent | undefined {
  const category = categoryFor(need, [], need.versus.flatMap(candidatesFor)).category;
  const sides = need.versus.map((typed): Side => ({ typed, placement: resolveName(typed, category) }));
  if (sides.some((side) => side.placement) || sides.some((side) => soundsLikeName(side.typed))) return { kind: "versus", category, sides };
  return undefined;
}

/** "Alternatives to X": X's category, or the query's; an unknown X is said to be unknown. */
function alternativesOf(need: Need, typed: string): Intent | undefined {
  const candidates = candidatesFor(typed);
  const category = categoryFor(need, [], candidates).category;
  const placement = resolveName(typed, category);
  if (placement || soundsLikeName(typed)) return { kind: "alternatives", category, side: { typed, placement } };
  return undefined;
}

/** "X reviews", "is X any good": X itself first among its rivals, or an honest "couldn't find X". */
function subjectOf(need: Need, typed: string): Intent | undefined {
  const candidates = candidatesFor(typed);
  const category = categoryFor(need, [], candidates).category;
  const placement = resolveName(typed, category);
  if (placement && category) return { kind: "category", category: placement.category, featured: [placement.product], brands: [] };
  if (soundsLikeName(typed)) return { kind: "unknown", category, name: typed };
  return undefined;
}

/** Products named in the query come first; companies named have their products favoured. */
function focusOf(names: NameHit[], category: Category): { featured: CatalogueProduct[]; brands: string[] } {
  const featured = names
    .filter((hit) => hit.entry.kind === "product")
    .flatMap((hit) => hit.entry.placements.filter((p) => p.category === category).map((p) => p.product));
  const brands = names.filter((hit) => hit.entry.kind === "company" && hit.entry.placements.some((p) => p.category === category)).map((hit) => hit.entry.name);
  return { featured: [...new Set(featured)], brands };
}

/** "What is a CRM?": the category's own description. */
function definitionOf(need: Need, category: Category | undefined): PlainReply | undefined {
  const asked = DEFINITION.exec(need.text)?.[1];
  if (!asked || !category || asked.split(" ").length > 5) return undefined;
  if (!category.keywords.some((keyword) => holds(words(asked), words(keyword)))) return undefined;
  return { paragraphs: [category.about], sources: category.sources.slice(0, 3) };
}

const WH_QUESTION = /^(?:who|whom|whose|when|where|why|how)\b/i;
const DEFINITION = /^(?:what(?:'s| is| are)|define|meaning of)\s+(?:an?\s+|the\s+)?(.+?)$/i;
