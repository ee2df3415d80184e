/**
 * Plain answers for questions that are not about products: greetings, capitals, a few common
 * how-tos, and an honest reply for any other fact or task. A real model knows far more; these are
 * enough for the demo's "what is the capital of France" to read as an answer, not as a product list.
 */
import type { SourcePage } from "./catalogue.ts";
import { howToTask, type Need } from "./query.ts";

export interface PlainReply {
  /** The answer's paragraphs; the first is the direct answer. */
  paragraphs: string[];
  /** Pages a search would find (the first ones cited); empty when the model would not search. */
  sources: SourcePage[];
}

/** A known answer to the question (a greeting, a capital, a listed how-to), or undefined. */
export function knownReply(need: Need): PlainReply | undefined {
  const text = need.text.toLowerCase();
  if (GREETING.test(text)) {
    return {
      paragraphs: [
        "Hello! I can look things up on the web for you: ask me to compare products or services, find the best option for a need, or answer a question.",
        'For example, try "best CRM for startups", "top running shoes 2026" or "Notion vs Confluence".',
      ],
      sources: [],
    };
  }
  const country = CAPITAL_QUESTION.map((pattern) => pattern.exec(text)?.[1])
    .find(Boolean)
    ?.replace(/^the\s+/, "");
  const capital = country ? CAPITALS[country] : undefined;
  if (country && capital) {
    const name = titleCase(country);
    return {
      paragraphs: [`The capital of ${name} is **${capital.city}**.`, capital.note ?? `${capital.city} is the seat of ${name}'s national government.`],
      sources: [
        { url: `https://en.wikipedia.org/wiki/${capital.city.replace(/ /g, "_")}`, title: `${capital.city} - Wikipedia` },
        { url: `https://www.britannica.com/place/${capital.city.replace(/ /g, "-")}`, title: `${capital.city} | History, Population, & Facts | Britannica` },
        { url: `https://www.cia.gov/the-world-factbook/countries/${country.replace(/ /g, "-")}/`, title: `${name} - The World Factbook` },
      ],
    };
  }
  const task = howToTask(need.text);
  const guide = task ? HOW_TOS.find((entry) => entry.match.test(task)) : undefined;
  if (guide) return { paragraphs: [guide.intro, guide.steps.map((step, i) => `${i + 1}. ${step}`).join("\n"), guide.tip], sources: guide.sources };
  return undefined;
}

/** An honest reply to a question the demo has no answer for, built around its own words. */
export function unknownReply(need: Need): PlainReply {
  const task = howToTask(need.text);
  if (task) {
    return {
      paragraphs: [
        `I couldn't find one clear, authoritative guide to ${task} in my search, so here is the general approach rather than steps I can't vouch for:`,
        "1. Look for instructions from the maker or an official source first.\n2. Check that the guide matches your exact model, version or situation.\n3. Gather what you need before you start, and stop if a step doesn't match what you see.",
        "If you tell me more about your situation, I can look for something more specific.",
      ],
      sources: [],
    };
  }
  return {
    paragraphs: [
      `I couldn't find a reliable, definitive answer to "${need.text}" in my search, so I'd rather not guess.`,
      "A good encyclopedia or an official source on the topic is the best place to check, and if you can add some detail I can try a more specific search.",
    ],
    sources: [],
  };
}

// ---------------------------------------------------------------------------------------------

const GREETING = /^(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|thanks|thank you|who are you|what can you do|help)(?:\s+there)?$/;
const CAPITAL_QUESTION = [/\bcapital (?:city )?of ([a-z .'-]+)$/, /^([a-z .'-]+?)(?:'s)? capital(?: city)?$/];

const CAPITALS: Record<string, { city: string; note?: string }> = {
  france: {
    city: "Paris",
    note: "Paris is also France's largest city and its political, economic and cultural center, home to the national government and the President's Élysée Palace.",
  },
  germany: { city: "Berlin" },
  italy: { city: "Rome" },
  spain: { city: "Madrid" },
  portugal: { city: "Lisbon" },
  "united kingdom": { city: "London" },
  uk: { city: "London" },
  england: { city: "London" },
  ireland: { city: "Dublin" },
  belgium: { city: "Brussels" },
  austria: { city: "Vienna" },
  switzerland: { city: "Bern", note: "Bern is the federal city, where Switzerland's government and parliament sit; Zurich and Geneva are larger." },
  poland: { city: "Warsaw" },
  sweden: { city: "Stockholm" },
  norway: { city: "Oslo" },
  denmark: { city: "Copenhagen" },
  finland: { city: "Helsinki" },
  greece: { city: "Athens" },
  "czech republic": { city: "Prague" },
  czechia: { city: "Prague" },
  hungary: { city: "Budapest" },
  netherlands: { city: "Amsterdam", note: "Amsterdam is the constitutional capital, while the government and parliament sit in The Hague." },
  "united states": { city: "Washington, D.C." },
  usa: { city: "Washington, D.C." },
  america: { city: "Washington, D.C." },
  canada: { city: "Ottawa" },
  mexico: { city: "Mexico City" },
  brazil: { city: "Brasília" },
  argentina: { city: "Buenos Aires" },
  chile: { city: "Santiago" },
  peru: { city: "Lima" },
  colombia: { city: "Bogotá" },
  japan: { city: "Tokyo" },
  china: { city: "Beijing" },
  india: { city: "New Delhi" },
  "south korea": { city: "Seoul" },
  korea: { city: "Seoul" },
  thailand: { city: "Bangkok" },
  vietnam: { city: "Hanoi" },
  indonesia: { city: "Jakarta" },
  philippines: { city: "Manila" },
  australia: { city: "Canberra", note: "Canberra was purpose-built as a compromise between Sydney and Melbourne, the two largest cities." },
  "new zealand": { city: "Wellington" },
  egypt: { city: "Cairo" },
  kenya: { city: "Nairobi" },
  nigeria: { city: "Abuja" },
  "south africa": { city: "Pretoria", note: "South Africa has three capitals: Pretoria (executive), Cape Town (legislative) and Bloemfontein (judicial)." },
  turkey: { city: "Ankara" },
  russia: { city: "Moscow" },
  ukraine: { city: "Kyiv" },
  israel: { city: "Jerusalem" },
  iran: { city: "Tehran" },
  "saudi arabia": { city: "Riyadh" },
  "united arab emirates": { city: "Abu Dhabi" },
  uae: { city: "Abu Dhabi" },
  morocco: { city: "Rabat" },
};

const OTHER_PLACES = [
  "new york",
  "los angeles",
  "chicago",
  "san francisco",
  "seattle",
  "boston",
  "miami",
  "toronto",
  "sydney",
  "melbourne",
  "barcelona",
  "dubai",
  "singapore",
  "europe",
  "asia",
  "africa",
  "spanish",
  "french",
  "german",
  "italian",
  "japanese",
  "chinese",
  "korean",
  "portuguese",
];

interface HowTo {
  match: RegExp;
  intro: string;
  steps: string[];
  tip: string;
  sources: SourcePage[];
}

const HOW_TOS: HowTo[] = [
  {
    match: /\bboil (?:an |some |a few )?eggs?\b/,
    intro: "To boil eggs, start them in boiling water and time them; that gives the most predictable results:",
    steps: [
      "Bring a pot of water to a full boil, enough to cover the eggs by about an inch.",
      "Lower the eggs in gently with a spoon and turn the heat down to a steady simmer.",
      "Cook 6–7 minutes for a jammy yolk, 9–10 minutes for a fully set but tender yolk, 11–12 minutes for classic hard-boiled.",
      "Move the eggs straight into a bowl of ice water for at least 5 minutes to stop the cooking.",
      "Crack and peel under running water, starting from the wide end where the air pocket is.",
    ],
    tip: "Eggs a week or two old peel more easily than very fresh ones.",
    sources: [
      { url: "https://www.seriouseats.com/perfect-boiled-eggs-recipe", title: "How to Make Perfect Boiled Eggs | Serious Eats" },
      { url: "https://www.bbcgoodfood.com/howto/guide/how-boil-egg-perfectly", title: "How to boil an egg | BBC Good Food" },
      { url: "https://www.incredibleegg.org/recipes/hard-boiled-eggs/", title: "Hard-Boiled Eggs | Incredible Egg" },
    ],
  },
  {
    match: /\btie (?:a |my )?tie\b/,
    intro: "The four-in-hand is the easiest, most versatile knot:",
    steps: [
      "Drape the tie around your neck with the wide end on your right, hanging about a foot lower than the narrow end.",
      "Cross the wide end over the narrow end, then bring it back underneath.",
      "Cross it over the front again, then pull it up through the loop around your neck.",
      "Push the wide end down through the front knot you just made and tighten by sliding the knot up.",
    ],
    tip: "The tip of the tie should just reach your belt buckle; redo it with a different starting length if it doesn't.",
    sources: [
      { url: "https://www.ties.com/how-to-tie-a-tie/four-in-hand", title: "How to Tie a Four-in-Hand Knot | Ties.com" },
      { url: "https://www.wikihow.com/Tie-a-Tie", title: "How to Tie a Tie | wikiHow" },
    ],
  },
  {
    match: /\b(?:change|fix) (?:a |my )?(?:flat )?(?:tire|tyre)\b/,
    intro: "Here's how to change a flat tire safely:",
    steps: [
      "Stop on flat, solid ground away from traffic, turn on your hazard lights and apply the parking brake.",
      "Loosen the lug nuts half a turn while the wheel is still on the ground.",
      "Place the jack at the jacking point in your owner's manual and raise the car until the tire clears the ground.",
      "Remove the lug nuts and the flat, fit the spare, and hand-tighten the nuts.",
      "Lower the car, then tighten the nuts fully in a star pattern.",
    ],
    tip: "Most compact spares are rated for about 50 mph and 50–70 miles; get the flat repaired or replaced soon.",
    sources: [
      { url: "https://www.bridgestonetire.com/learn/maintenance/how-to-change-a-flat-tire/", title: "How to Change a Flat Tire | Bridgestone" },
      { url: "https://www.caranddriver.com/features/a28628306/how-to-change-a-tire/", title: "How to Change a Tire | Car and Driver" },
    ],
  },
  {
    match: /\bcook (?:white |brown )?rice\b/,
    intro: "For fluffy stovetop white rice:",
    steps: [
      "Rinse 1 cup of rice in a sieve until the water runs mostly clear.",
      "Add it to a pot with 1½ cups of water and a pinch of salt, and bring to a boil.",
      "Cover, turn the heat to low and cook for 15 minutes without lifting the lid.",
      "Take it off the heat and leave it covered for 10 minutes, then fluff with a fork.",
    ],
    tip: "Brown rice needs more water (about 2 cups per cup) and 40–45 minutes.",
    sources: [
      { url: "https://www.seriouseats.com/how-to-cook-rice", title: "How to Cook Rice on the Stovetop | Serious Eats" },
      { url: "https://www.bbcgoodfood.com/howto/guide/how-cook-perfect-rice", title: "How to cook perfect rice | BBC Good Food" },
    ],
  },
  {
    match: /\bunclog (?:a |my |the )?(?:sink|drain|toilet)\b/,
    intro: "Try these in order, from gentlest to strongest:",
    steps: [
      "Pour a kettle of hot (not boiling, for plastic pipes) water down the drain.",
      "Use a plunger with a good seal, covering any overflow hole with a wet cloth.",
      "Pour in half a cup of baking soda, then a cup of vinegar; wait 15 minutes and flush with hot water.",
      "Use a drain snake or a bent wire hanger to pull out hair and debris.",
    ],
    tip: "Avoid mixing chemical drain cleaners with other products, and call a plumber if several drains back up at once.",
    sources: [
      { url: "https://www.bobvila.com/articles/how-to-unclog-a-drain/", title: "How to Unclog a Drain | Bob Vila" },
      { url: "https://www.familyhandyman.com/project/how-to-unclog-a-drain/", title: "How to Unclog a Drain | Family Handyman" },
    ],
  },
];

/** Words of countries, cities and languages, which the query reader must not take for brand names. */
export const PLACES: ReadonlySet<string> = new Set(
  [...Object.entries(CAPITALS).flatMap(([country, { city }]) => [country, city]), ...OTHER_PLACES]
    .flatMap((place) => place.toLowerCase().split(/[^\p{L}]+/u))
    .filter(Boolean),
);

function titleCase(text: string): string {
  if (text === "uk" || text === "usa" || text === "uae") return text.toUpperCase();
  return text.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
}
