/**
 * What the query-variants "model" returns: five other queries a person with the same need might
 * type, each with the angle it takes (rewording, comparison, budget, alternatives, a use, a
 * persona, broader). A query in a catalogue category borrows that category's products, uses and
 * price points; any other query is rephrased from its own words only ("A vs B", "X alternatives",
 * "best X", a plain question), never with another category's products.
 */
import { matchCategory, userQuery } from "./answers.ts";
import type { CatalogueProduct, Category } from "./catalogue.ts";
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

/** How people type a category's need: the noun, uses that narrow it, a price cap, whether businesses buy it. */
interface Phrasing {
  noun: string;
  uses: string[];
  price: string;
  business?: true;
}

const phrasings: Record<string, Phrasing> = {
  "running-shoes": { noun: "running shoes", price: "under $100", uses: ["for flat feet", "for marathon training", "for wide feet", "for knee pain"] },
  "crm-software": { noun: "CRM", price: "under $50 a month", uses: ["for real estate agents", "for startups", "for Gmail users", "for B2B sales"], business: true },
  "project-management": { noun: "project management software", price: "under $10 per user", uses: ["for remote teams", "for software development", "for marketing agencies", "for construction projects"], business: true },
  "noise-cancelling-headphones": { noun: "noise cancelling headphones", price: "under $200", uses: ["for flights", "for commuting", "for working from home", "for studying"] },
  "laptops-for-programming": { noun: "programming laptop", price: "under $1000", uses: ["for web development", "for machine learning", "for computer science students", "for Linux"] },
  "password-managers": { noun: "password manager", price: "under $3 a month", uses: ["for families", "for teams", "for passkeys", "for iPhone and Windows"], business: true },
  "email-marketing": { noun: "email marketing software", price: "under $20 a month", uses: ["for e-commerce", "for a newsletter", "for creators", "for nonprofits"], business: true },
  "web-hosting": { noun: "web hosting", price: "under $5 a month", uses: ["for WordPress", "for a business website", "for high traffic sites", "for developers"], business: true },
  "electric-cars": { noun: "electric car", price: "under $40,000", uses: ["for long road trips", "for families", "for cold weather", "for commuting"] },
  "coffee-machines": { noun: "coffee machine", price: "under $300", uses: ["for lattes", "for a small kitchen", "for an office", "for fresh beans"] },
  mattresses: { noun: "mattress", price: "under $1000", uses: ["for back pain", "for side sleepers", "for hot sleepers", "for couples"] },
  vpns: { noun: "VPN", price: "under $5 a month", uses: ["for streaming", "for torrenting", "for travel", "for gaming"] },
  "note-taking-apps": { noun: "note taking app", price: "under $5 a month", uses: ["for students", "for research", "for handwriting on iPad", "for a second brain"] },
  "standing-desks": { noun: "standing desk", price: "under $500", uses: ["for a small space", "for dual monitors", "for a home office", "for tall people"] },
  "robot-vacuums": { noun: "robot vacuum", price: "under $300", uses: ["for pet hair", "for carpets", "for large homes", "for hardwood floors"] },
  "accounting-software": { noun: "accounting software", price: "under $30 a month", uses: ["for freelancers", "for contractors", "for online sellers", "for nonprofits"], business: true },
  "video-editing-software": { noun: "video editing software", price: "under $100", uses: ["for YouTube", "for TikTok videos", "for Mac", "for 4K footage"] },
  smartphones: { noun: "smartphone", price: "under $500", uses: ["for photography", "for battery life", "for seniors", "for gaming"] },
  "3d-printers": { noun: "3D printer", price: "under $300", uses: ["for miniatures", "for cosplay props", "for engineering prototypes", "for a classroom"] },
  "meal-kit-delivery": { noun: "meal kit", price: "under $10 a serving", uses: ["for families", "for weight loss", "for vegetarians", "for couples"] },
  "website-builders": { noun: "website builder", price: "under $20 a month", uses: ["for photographers", "for an online store", "for a restaurant", "for a portfolio"], business: true },
  "air-purifiers": { noun: "air purifier", price: "under $200", uses: ["for allergies", "for wildfire smoke", "for large rooms", "for pet owners"] },
  "wireless-earbuds": { noun: "wireless earbuds", price: "under $100", uses: ["for running", "for iPhone", "for calls", "for small ears"] },
};

/** The query inside the prompt's <query> tags, else its first paragraph. */
export function variantsQuery(prompt: string): string {
  const tagged = /<query>([\s\S]*?)<\/query>/.exec(prompt);
  return tagged ? (tagged[1] ?? "").trim() : userQuery(prompt);
}

export function composeVariants(rng: Rng, prompt: string): Variant[] {
  const query = variantsQuery(prompt);
  const need = readNeed(query);
  const { category, matched } = matchCategory(query);
  const angles = [
    ...(matched ? catalogueAngles(rng, need, category) : need.shopping ? shoppingAngles(need, need.core) : []),
    ...(need.names.length === 2 ? versusAngles(need) : []),
    ...(need.names.length === 1 ? alternativesAngles(need) : []),
  ];
  return choose(rng, query, angles.length > 0 ? angles : questionAngles(need));
}

// ---------------------------------------------------------------------------------------------

interface Need {
  /** As typed, without end punctuation. */
  text: string;
  /** What is wanted, without "best"/"what are the" ("running shoes for beginners"). */
  core: string;
  /** core's narrowing tail ("for beginners", "under $100"), or "". */
  qualifier: string;
  /** Whether the query asks for things to buy or use ("best X", or a short noun phrase in a category). */
  shopping: boolean;
  /** The two names of "A vs B", or the one of "X alternatives", in the person's spelling. */
  names: string[];
}

const SHOPPING = /^(?:(?:what|which)(?:'s|\s+is|\s+are)?\s+)?(?:(?:the|a|some)\s+)?(?:best|top|good|great|recommended)(?:\s+\d+)?\s+(.+)$/i;
const VERSUS = [
  /^(?:(?:compare|comparing)\s+)?(.+?)\s+(?:vs\.?|versus|compared (?:to|with))\s+(.+)$/i,
  /^(?:which is better|should i (?:use|get|buy|choose|pick))[,:]?\s+(.+?)\s+or\s+(.+)$/i,
];
const ALTERNATIVES = [/^(?:(?:best|good|free|cheap(?:er)?|top)\s+)?alternatives?\s+(?:to|for)\s+(.+)$/i, /^(.+?)\s+alternatives?$/i, /^(?:apps?|tools?|software|something|anything)\s+(?:like|similar to)\s+(.+)$/i];
const QUALIFIER = /^(.+?)\s+((?:for|under|below|with|without|in|near)\s.+)$/i;
const QUESTION = /^(?:what|who|where|when|why|which|how|is|are|can|should|do|does)\b/i;

function readNeed(query: string): Need {
  const text = query.replace(/\s+/g, " ").trim().replace(/[?!.]+$/, "").trim();
  const wanted = SHOPPING.exec(text)?.[1];
  const core = wanted ?? text;
  const [, head = core, tail = ""] = QUALIFIER.exec(core) ?? [];
  // Names before the qualifier ("A vs B for teams"), else names that hold a "for" ("alternatives for X").
  const split = namesOf(head);
  const names = split.length > 0 ? split : namesOf(core);
  const qualifier = split.length > 0 || names.length === 0 ? tail : "";
  return { text, core, qualifier, shopping: wanted !== undefined && names.length === 0, names: names.map(bare) };
}

function namesOf(core: string): string[] {
  for (const pattern of VERSUS) {
    const match = pattern.exec(core);
    if (match?.[1] && match[2]) return [match[1], match[2]];
  }
  for (const pattern of ALTERNATIVES) {
    const match = pattern.exec(core);
    if (match?.[1]) return [match[1]];
  }
  return [];
}

/** A category's need: its products as anchors (those the query names first), its uses and price. */
function catalogueAngles(rng: Rng, need: Need, category: Category): Angle[] {
  const phrasing = phrasings[category.id] ?? { noun: category.label, uses: [], price: "" };
  const { noun } = phrasing;
  // A question or a comparison is about the category as a whole; a shopping query keeps its own words.
  const short = need.text.split(" ").length <= 5 && !QUESTION.test(need.text);
  const own = need.names.length === 0 && (need.shopping || short);
  const core = own ? need.core : noun;
  const q = own ? suffix(need.qualifier) : "";
  const named = category.products.filter((p) => says(need.text, p.name) || says(need.text, brand(p)));
  const order = [...named, ...rng.weightedSample(category.products, (p) => p.popularity ** 3, category.products.length).filter((p) => !named.includes(p))];
  const [a] = order;
  const rival = order.find((p) => a && brand(p) !== brand(a)) ?? order[1];
  const angles = shoppingAngles(need, core, noun, phrasing);
  if (a && rival) {
    angles.push([
      [`${a.name} vs ${rival.name}${q}`, `Comparison: someone who has narrowed it down to ${a.name} and ${rival.name}.`],
      [`${a.name} or ${rival.name}, which is better${q}`, `Comparison: someone deciding between two popular picks, ${a.name} and ${rival.name}.`],
      // Makers only: a brand that is the product's own name ("Attio") would repeat the noun.
      ...(brand(a) !== a.name && brand(rival) !== rival.name
        ? ([[`${brand(a)} vs ${brand(rival)} ${core}`, `Brand comparison: two of the most recommended makers, ${brand(a)} and ${brand(rival)}, head to head.`]] as Draft[])
        : []),
    ]);
  }
  if (a) {
    const reasoning = `Alternatives: someone who already knows ${a.name} and wants other options`;
    angles.push([[`${a.name} alternatives${q}`, `${reasoning}.`], [`something like ${a.name} but cheaper`, `${reasoning}, for less money.`], [`what's better than ${a.name}`, `${reasoning}.`]]);
  }
  if (!q) angles.push(phrasing.uses.map((use) => [`best ${noun} ${use}`, `Use case: a narrower need, ${noun} ${use}.`]));
  return angles;
}

/**
 * Rewording, budget, persona and a broader research query, from the person's own words; a
 * category adds its price cap and, when businesses buy it, a small-business persona.
 */
function shoppingAngles(need: Need, core: string, noun = need.core.replace(QUALIFIER, "$1"), phrasing?: Phrasing): Angle[] {
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
  if (!/\b(beginner|new to|first)/i.test(need.text)) personas.push([`beginner-friendly ${core}`, "Persona: a beginner who wants something easy to start with."]);
  if (!/\b(professional|pro|expert)\b/i.test(need.text)) {
    personas.push([QUALIFIER.test(core) ? `pro-level ${core}` : `${core} professionals recommend`, "Persona: a professional who needs something that holds up to heavy use."]);
  }
  if (phrasing?.business && !/\b(business|team|company|startup)/i.test(need.text)) {
    personas.push([`${noun} for a small business`, "Persona: a small business owner weighing cost and setup effort."]);
  }
  if (personas.length > 0) angles.push(personas);
  return angles;
}

/** "A vs B": the same decision, from other angles. */
function versusAngles(need: Need): Angle[] {
  const [a = "", b = ""] = need.names;
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
function alternativesAngles(need: Need): Angle[] {
  const [x = ""] = need.names;
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
  const how = /^how (?:do (?:i|you|we) |can (?:i|you|we) |to |should (?:i|you|we) )(.+)$/i.exec(need.text)?.[1];
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

/** Without a leading article. */
function bare(text: string): string {
  return text.replace(/^(?:the|a|an)\s+/i, "").trim();
}

/** Whether a text names something, as whole words ("HP" is not in "php"). */
function says(text: string, name: string): boolean {
  return ` ${key(text)} `.includes(` ${key(name)} `);
}

function key(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
