/**
 * What the query-variants "model" returns: five other queries a person with the same need might
 * type, each with the angle it takes (rewording, comparison, budget, alternatives, a use, a
 * persona, broader). A query in a catalogue category borrows that category's products, uses and
 * price points; any other query is rephrased from its own words only ("A vs B", "X alternatives",
 * "best X", a plain question), never with another category's products.
 */
import type { CatalogueProduct, Category } from "./catalogue.ts";
import { matchCategory } from "./matching.ts";
import { bare, howToTask, readNeed, userQuery, type Need } from "./query.ts";
import type { Rng } from "./random.ts";

export interface Variant {
  query: string;
  reasoning: string;
}

/** As many as the variants prompt asks for. */
const COUNT = 5;

/** One candidate: the query as typed, and the one-line reasoning. */
type Draft = [query: string, reasoning: string];

/** Candidates that take the same angle; at most one of them is used per round. */
type Angle = Draft[];

/** The query inside the prompt's <query> tags (a buyer-questions prompt's <category>), else its first paragraph. */
export function variantsQuery(prompt: string): string {
  const tagged = /<(query|category)>([\s\S]*?)<\/\1>/.exec(prompt);
  return tagged ? (tagged[2] ?? "").trim() : userQuery(prompt);
}

export function composeVariants(rng: Rng, prompt: string): Variant[] {
  const query = variantsQuery(prompt);
  const need = readNeed(query);
  const names = namesOf(need);
  // A comparison or "alternatives to X" is rephrased from its own names, not the category's other products.
  const category = names.length === 0 ? matchCategory(query) : undefined;
  const angles = [
    ...(category ? catalogueAngles(rng, need, category) : need.shopping ? shoppingAngles(need, need.core) : []),
    ...(names.length >= 2 ? versusAngles(need, names) : []),
    ...(names.length === 1 ? alternativesAngles(need, names) : []),
  ];
  return choose(rng, query, angles.length > 0 ? angles : questionAngles(need));
}

// ---------------------------------------------------------------------------------------------

/** The names of "A vs B", or the one of "X alternatives", in the person's spelling. */
function namesOf(need: Need): string[] {
  return need.versus.length >= 2 ? need.versus.slice(0, 2) : need.alternativesTo ? [need.alternativesTo] : [];
}

const QUESTION = /^(?:what|who|where|when|why|which|how|is|are|can|should|do|does)\b/i;

/** A category's need: its products as anchors (those the query names first), its uses and price. */
function catalogueAngles(rng: Rng, need: Need, category: Category): Angle[] {
  const { noun } = category;
  // A question or a comparison is about the category as a whole; a shopping query keeps its own words.
  const short = need.text.split(" ").length <= 5 && !QUESTION.test(need.text);
  const own = need.shopping || short;
  const core = own ? need.core : noun;
  const q = own ? suffix(need.qualifier) : "";
  const named = category.products.filter((p) => says(need.text, p.name) || says(need.text, brand(p)));
  const order = [...named, ...rng.weightedSample(category.products, (p) => p.popularity ** 3, category.products.length).filter((p) => !named.includes(p))];
  const [a] = order;
  const rival = order.find((p) => a && brand(p) !== brand(a)) ?? order[1];
  const angles = shoppingAngles(need, core, noun, category);
  if (a && rival) {
    angles.push([
      [`${a.name} vs ${rival.name}${q}`, `Comparison: someone who has narrowed it down to ${a.name} and ${rival.name}.`],
      [`${a.name} or ${rival.name}, which is better${q}`, `Comparison: someone deciding between two popular picks, ${a.name} and ${rival.name}.`],
      // Makers only: a brand that is the product's own name ("Attio") would repeat the noun.
      ...(brand(a) !== a.name && brand(rival) !== rival.name
        ? ([
            [`${brand(a)} vs ${brand(rival)} ${core}`, `Brand comparison: two of the most recommended makers, ${brand(a)} and ${brand(rival)}, head to head.`],
          ] as Draft[])
        : []),
    ]);
  }
  if (a) {
    const reasoning = `Alternatives: someone who already knows ${a.name} and wants other options`;
    angles.push([
      [`${a.name} alternatives${q}`, `${reasoning}.`],
      [`something like ${a.name} but cheaper`, `${reasoning}, for less money.`],
      [`what's better than ${a.name}`, `${reasoning}.`],
    ]);
  }
  if (!q) angles.push(category.uses.map((use) => [`best ${noun} ${use}`, `Use case: a narrower need, ${noun} ${use}.`]));
  return angles;
}

/**
 * Rewording, budget, persona and a broader research query, from the person's own words; a
 * category adds its price cap and, when businesses buy it, a small-business persona.
 */
function shoppingAngles(need: Need, core: string, noun = need.head, phrasing?: Pick<Category, "price" | "business">): Angle[] {
  const year = new Date().getFullYear();
  const angles: Angle[] = [
    [
      [`${core} recommendations`, "Rewording: the same need asked as a request for recommendations."],
      [`top rated ${core} ${year}`, "Rewording with the year: someone who wants this year's picks."],
      [`what ${core} should I get`, "Rewording: a conversational question, as typed into a chat."],
      [`most recommended ${core}`, "Rewording: someone who wants the consensus picks."],
      [`${core} reddit`, "Rewording as a community search: someone who trusts real users' opinions."],
    ],
    [
      [`${noun} buying guide`, "Broader, research stage: someone learning what matters before choosing."],
      [`${noun}: what to look for`, "Broader, research stage: the features that matter, before any brand."],
    ],
  ];
  // Without a catalogue's products, the comparison is between brands in general.
  if (!phrasing) angles.push([[`${noun} brands compared`, "Comparison: the main brands weighed against each other."]]);
  if (!/\b(cheap|budget|afford|under|below|price)/i.test(need.text)) {
    angles.push([
      [`cheap ${core}`, "Budget angle: a price-conscious buyer."],
      [`best budget ${core}`, "Budget angle: someone who wants the best value, not the top of the range."],
      [`affordable ${core} worth the money`, "Budget angle: value for money over premium features."],
      ...(phrasing?.price ? ([[`${core} ${phrasing.price}`, `Budget angle: a price-conscious buyer capping the spend ${phrasing.price}.`]] as Draft[]) : []),
    ]);
  }
  const personas: Draft[] = [];
  if (!/\b(beginner|new to|first)/i.test(need.text))
    personas.push([`beginner-friendly ${core}`, "Persona: a beginner who wants something easy to start with."]);
  if (!/\b(professional|pro|expert)\b/i.test(need.text)) {
    personas.push([
      /\s(?:for|under|below|with|without|in|near)\s/i.test(core) ? `pro-level ${core}` : `${core} professionals recommend`,
      "Persona: a professional who needs something that holds up to heavy use.",
    ]);
  }
  if (phrasing?.business && !/\b(business|team|company|startup)/i.test(need.text)) {
    personas.push([`${noun} for a small business`, "Persona: a small business owner weighing cost and setup effort."]);
  }
  if (personas.length > 0) angles.push(personas);
  return angles;
}

/** "A vs B": the same decision, from other angles. */
function versusAngles(need: Need, names: readonly string[]): Angle[] {
  const [a = "", b = ""] = names;
  const q = suffix(need.qualifier);
  const year = new Date().getFullYear();
  return [
    [
      [`is ${a} better than ${b}${q}`, `Rewording: a yes-or-no question about ${a} against ${b}.`],
      [`which is better, ${b} or ${a}${q}`, "Rewording: the same comparison, asked the other way round."],
    ],
    [
      [`${b} alternatives`, `Alternatives: someone unsure about ${b} who wants to see other options.`],
      [`alternatives to ${a}`, `Alternatives: someone open to something other than ${a}.`],
    ],
    [
      [`${a} vs ${b} pricing`, "Budget angle: which of the two costs less for the same job."],
      [`is ${a} worth it over ${b}`, `Budget angle: whether ${a} justifies its price against ${b}.`],
    ],
    [
      [`switching from ${b} to ${a}`, `Switching: someone already on ${b} who is considering ${a}.`],
      [`should I move from ${a} to ${b}`, `Switching: someone already on ${a} who is considering ${b}.`],
    ],
    [
      ...(q ? [] : ([[`${a} vs ${b} for a small team`, "Persona: a small team choosing one option for everyone."]] as Draft[])),
      [`${a} or ${b} for a beginner`, "Persona: a beginner who wants whichever is easier to start with."],
      [`${a} vs ${b} for professionals`, "Persona: a professional who needs the more capable of the two."],
    ],
    [
      [`${a} vs ${b} pros and cons`, "Specific: someone who wants the trade-offs laid out."],
      [`${a} vs ${b} in ${year}`, "Specific: someone who wants a current comparison."],
    ],
  ];
}

/** "X alternatives": other ways to ask for what replaces X. */
function alternativesAngles(need: Need, names: readonly string[]): Angle[] {
  const [x = ""] = names;
  const q = suffix(need.qualifier);
  const year = new Date().getFullYear();
  return [
    [
      [`alternatives to ${x}${q}`, "Rewording: the same request in another word order."],
      [`something like ${x}`, `Rewording: someone who likes ${x} and wants something similar.`],
      [`what do people use instead of ${x}`, "Rewording: a conversational question about what others switched to."],
    ],
    [
      [`cheaper alternatives to ${x}${q}`, `Budget angle: someone who finds ${x} too expensive.`],
      [`free alternatives to ${x}`, `Budget angle: someone who wants what ${x} does without paying.`],
    ],
    [[`${x} competitors compared`, `Comparison: ${x} against its main competitors, side by side.`]],
    [[`is ${x} still worth it in ${year}`, `Keep or switch: someone unsure whether to leave ${x}.`]],
    [
      ...(q ? [] : ([[`${x} alternatives for a small business`, "Persona: a small business looking for a better fit."]] as Draft[])),
      [`${x} alternatives for beginners`, "Persona: a beginner who wants something simpler."],
    ],
  ];
}

/** A question that is not about buying anything: the same question at other depths, for other people. */
function questionAngles(need: Need): Angle[] {
  const how = howToTask(need.text);
  if (how) {
    return [
      [[`how to ${how}`, "Rewording: the terse how-to form, as typed into a search box."]],
      [[`${how} step by step`, "Specific: someone who wants exact steps to follow."]],
      [[`easiest way to ${how}`, "Persona: a beginner who wants the simplest route."]],
      [[`common mistakes when trying to ${how}`, "Angle: someone who wants to avoid the usual pitfalls."]],
      [[`professional tips to ${how}`, "Persona: someone who wants to do it the way a professional would."]],
      [[`tools needed to ${how}`, "Specific: what to have at hand before starting."]],
    ];
  }
  const what = /^(?:what|who)(?:'s|\s+(?:is|are|was|were))\s+(.+)$/i.exec(need.text);
  const topic = what?.[1] ?? need.text;
  const plain = bare(topic);
  return [
    ...(plain.toLowerCase() === need.text.toLowerCase() ? [] : [[[plain, "Terse: the keywords alone, as typed into a search box."]] as Angle]),
    [[`${plain} explained simply`, "Persona: a beginner who wants a plain-language answer."]],
    [[`${plain} for a school project`, "Persona: a student who needs it for homework."]],
    [[`reliable sources on ${topic}`, "Persona: a researcher who wants sources to cite."]],
    [[`tell me about ${topic}`, "Broader: invites a fuller explanation than the bare answer."]],
    [[`${plain} quick facts`, "Narrower: just the key facts, fast."]],
    [[`${plain}: history and background`, "Deeper: the background, not just the answer."]],
  ];
}

/** Five variants, round-robin over the angles in a random order, none repeating another or the query. */
function choose(rng: Rng, query: string, angles: readonly Angle[]): Variant[] {
  const seen = new Set([key(query)]);
  const variants: Variant[] = [];
  const pools = rng.shuffle(angles).map((angle) => rng.shuffle(angle));
  while (variants.length < COUNT && pools.some((pool) => pool.length > 0)) {
    for (const pool of pools) {
      let draft = pool.shift();
      while (draft && seen.has(key(draft[0]))) draft = pool.shift();
      if (!draft) continue;
      seen.add(key(draft[0]));
      variants.push({ query: draft[0], reasoning: draft[1] });
      if (variants.length === COUNT) break;
    }
  }
  return variants;
}

/** What a product is known by: its maker when its name starts with it ("Nike"), else the name ("Trello"). */
function brand(product: CatalogueProduct): string {
  return product.name.startsWith(`${product.company} `) ? product.company : product.name;
}

/** A qualifier as the end of a query: " for teams", or "". */
function suffix(qualifier: string): string {
  return qualifier ? ` ${qualifier}` : "";
}

/** Whether a text names something, as whole words ("HP" is not in "php"). */
function says(text: string, name: string): boolean {
  return ` ${key(text)} `.includes(` ${key(name)} `);
}

function key(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
