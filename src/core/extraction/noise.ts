import { nameKey } from "../names.ts";
import { isDistinctive, isEnglishWord, isOrdinaryWord } from "./words.ts";

/**
 * Tidies a product or company name as models write it: markdown emphasis and links, list
 * markers, wrapping quotes, ™/®, trailing commas, a stray final period on a short name, and a
 * possessive "'s" (rule c: "Nike's" → "Nike") — except for brands whose real name ends in 's.
 */
export function cleanName(raw: string): string {
  let name = raw
    .replace(/[\u200b-\u200d\ufeff]/g, "")
    .replace(/[™®©℠]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  name = name.replace(/^\[([^\]]+)\]\([^)]*\)$/, "$1"); // [Notion](https://notion.so)
  name = name.replace(/^(?:\*\*|__|\*|`)+|(?:\*\*|__|\*|`)+$/g, "").trim();
  name = name.replace(/^(?:[-*•·]\s+|#?\d{1,2}[.)]\s+)/, "").trim(); // "1. Notion", "- Notion"
  name = stripWrappingQuotes(withoutTail(withoutLabel(name))).replace(/[\s,;:]+$/, "");
  const words = name.split(" ");
  if (words.length <= 2 && name.endsWith(".") && !isAbbreviation(words.at(-1) ?? "")) name = name.slice(0, -1);
  if (/['’]s$/.test(name) && !POSSESSIVE_BRANDS.has(nameKey(name))) name = name.slice(0, -2).trimEnd();
  return name;
}

/**
 * A name with a label the answer put before it ("Honourable mention: Jira", "Best overall:
 * Notion", "Runner-up: Asana") is the name: a label is a phrase of English words in sentence
 * case (two words or more, or one such as "Winner"), and the name after it starts with a capital
 * or a digit. A title ("Star Wars: Outlaws") is not a label.
 */
function withoutLabel(name: string): string {
  const match = /^([^:]+):\s+(?=[\p{Lu}\p{N}])(.+)$/u.exec(name);
  const label = match?.[1]?.replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, "").trim() ?? "";
  const words = label.split(/\s+/);
  const sentenceCase = /^\p{Lu}/u.test(label) && words.slice(1).every((word) => /^\p{Ll}/u.test(word));
  const english = words.every((word) => word.split("-").every((part) => isEnglishWord(part.replace(/['’]s$/, ""))));
  if (!match?.[2] || !sentenceCase || !english || (words.length < 2 && !LABELS.has(label.toLowerCase()))) return name;
  return match[2].replace(/^(?:\*\*|__)/, "").trim();
}

/**
 * A name with the start of its description after a colon ("Hoka Clifton 9: Plush", from "Hoka
 * Clifton 9: Plush cushioning…") is the name: the part before the colon has a word only a name
 * has (a digit, an inner capital, a word no dictionary lists) and the part after is English words,
 * rarer ones too ("Bouncy"): a description's words, not a name's. A title of ordinary words
 * ("Mission: Impossible") is left as written.
 */
function withoutTail(name: string): string {
  const match = /^(.+?):\s+(.+)$/.exec(name);
  if (!match?.[1] || !match[2]) return name;
  const ordinary = (word: string) => /^[\p{L}'’-]+$/u.test(word) && word.split("-").every((part) => isEnglishWord(part.replace(/['’]s$/, "")));
  return match[1].split(" ").some(isDistinctive) && match[2].split(" ").every(ordinary) ? match[1] : name;
}

/**
 * Rule b: text that is not a name — shorter than 2 characters, no letters or digits, more than
 * 8 words that read like a phrase (a third of them lower case: "Hill's Science Diet Adult 7+
 * Sensitive Stomach & Skin" is a name), a sentence (ends in "." after 3+ words, or "?"), a name with an explanation after
 * ": " or a spaced dash ("Notion: great for docs"), or a phrase starting with a conjunction or
 * article + adjective ("and Asana", "The best option").
 */
export function isFragment(name: string): boolean {
  if (name.length < 2 || !/[\p{L}\p{N}]/u.test(name)) return true;
  const words = name.split(" ");
  if (words.length > 8 && words.filter((word) => /^\p{Ll}/u.test(word)).length * 3 >= words.length) return true;
  if (name.endsWith("?")) return true;
  if (name.endsWith(".") && words.length >= 3 && !isAbbreviation(words.at(-1) ?? "")) return true;
  const explanation = /(?::\s|\s[-–—]\s)(.+)$/.exec(name)?.[1];
  if (explanation !== undefined && (/^\p{Ll}/u.test(explanation) || explanation.split(" ").length >= 4)) return true;
  const first = words[0]?.toLowerCase() ?? "";
  const second = words[1]?.toLowerCase() ?? "";
  if (LEADING_CONJUNCTIONS.has(first)) return true;
  // Two names joined ("TCL QM8K and Hisense U8"): each side two words or more, each with a word
  // only a name has. One brand of two words ("Briggs & Riley", "Skin & Stomach") is not split.
  const sides = name.split(/\s+(?:and|&)\s+/);
  if (sides.length === 2 && sides.every((side) => side.split(" ").length >= 2 && /^[\p{Lu}\p{N}]/u.test(side) && side.split(" ").some(isDistinctive)))
    return true;
  return ARTICLES.has(first) && LEADING_ADJECTIVES.has(second);
}

/**
 * Rule a: a product category is not a product: a name ending in a category noun, none of whose words
 * looks like a brand or is one of `brandWords` (the answer's companies'). The cases: tests/unit/extraction-classes.test.ts §1, extraction.test.ts "a.".
 */
export function isCategory(name: string, brandWords: ReadonlySet<string> = new Set()): boolean {
  if (brandWords.has(nameKey(name))) return false;
  const words = joinedCompounds(name.split(" ").map((word) => word.replace(/^[("'“‘]+|[)"'”’,.!]+$/g, "")));
  if (!isCategoryNoun(words.at(-1) ?? "")) return false;
  const sentenceCase = words.length >= 2 && /^\p{Lu}\p{Ll}*(?:-\p{Ll}+)*$/u.test(words[0] ?? "") && !words.slice(1).some((word) => /\p{Lu}/u.test(word));
  return words.every((word, index) => word === "" || isGenericWord(index === 0 && sentenceCase ? word.toLowerCase() : word, brandWords));
}

/**
 * Rule a for a category written as a title ("Robot Vacuum Cleaners", "Noise Cancelling
 * Headphones", "Project Management Software", "Running Shoes"), as headings and bold labels
 * write it: two words or more, each capitalised and none with another capital or a digit, each
 * an ordinary English word (or a known descriptive one), the last a category noun in the plural
 * ("Cleaners", "Shoes") or uncountable ("Software", "Gear"), and no word one of `brandWords`. A
 * product made of ordinary words stays a product: a single word (Notion, Slack, Bear); a
 * singular head (Magic Keyboard, Apple Watch, Purple Mattress, Ring Video Doorbell); a plural of
 * a word that is no kind of product (Studio Buds, Happy Socks, Common Projects); and a brand
 * the same extraction names as a company (Rainbow Sandals beside the company Rainbow). Only for
 * products: a company is often named for its trade ("Rad Power Bikes", "Native Shoes").
 * `answer` says whether the answer writes a word in lower case and a name as a heading of its
 * own: a heading ending in a plural the answer uses as a common noun is a category whatever its
 * kind ("## City Strollers" where it says "jogging strollers"). A title word capitalised in the
 * middle ("For", "With") is read as the lower-case word it is ("Mattresses For Side Sleepers").
 * A compound word is the same word however it is written ("E-Reader", "eReader", "E Reader"): one
 * the lists know is read as they spell it; one they do not is a kind of thing when the answer
 * writes it as a common noun, in any of those spellings ("E-Scooters" where it says "e-scooter").
 */
export function isTitleCaseCategory(
  name: string,
  brandWords: ReadonlySet<string> = new Set(),
  answer: { commonNoun(word: string): boolean; heading(name: string): boolean } = { commonNoun: () => false, heading: () => false },
): boolean {
  const all = joinedCompounds(name.split(" "));
  if (brandWords.has(nameKey(name))) return false;
  // "Mattresses For Side Sleepers": the title's head is the noun before "For"/"With", what
  // follows says who it is for, in title words too.
  const audienceAt = all.findIndex((word, index) => index > 0 && AUDIENCE_WORDS.has(word.toLowerCase()));
  const words = (audienceAt > 0 ? all.slice(0, audienceAt) : all).filter((word) => !GLUE_WORDS.has(word.toLowerCase()));
  const audience = audienceAt > 0 ? all.slice(audienceAt + 1).filter((word) => !GLUE_WORDS.has(word.toLowerCase())) : [];
  const last = words.at(-1) ?? "";
  if (
    audience.length === 0 &&
    !brandWords.has(last.toLowerCase()) &&
    isSpokenCompound(last, answer) &&
    words.slice(0, -1).every((word) => isGenericWord(word, brandWords))
  )
    return true;
  if (words.length + audience.length < 2) return false;
  const head = listedSpelling(last);
  // A heading of the answer's whose plural the answer also writes as a common noun ("## City
  // Strollers" over "jogging strollers") is a category, and the words before it may be rarer
  // English ("Home Espresso Machines"); a product in the prose ("**Apple Notes** is free", in an
  // answer about notes) is not a heading.
  const spoken = /s$/.test(head) && !HEAD_NOUNS.includes(head) && isCategoryNoun(head) && answer.commonNoun(head) && answer.heading(name);
  if (!(spoken || MASS_HEADS.has(head) || (CATEGORY_HEADS.has(head) && !HEAD_NOUNS.includes(head)) || isRarePlural(head))) return false;
  const titled = (word: string) =>
    (/^\p{Lu}\p{Ll}+(?:-\p{Lu}?\p{Ll}+)*$/u.test(word) || (/^\p{Lu}/u.test(word) && COMPOUNDS.has(letters(word)))) && !brandWords.has(word.toLowerCase());
  const describes = (word: string) =>
    titled(word) && (isTitleWord(word) || word.split("-").every((part) => isTitleWord(part) || (spoken && isEnglishWord(part))));
  return titled(words.at(-1) ?? "") && [...words.slice(0, -1), ...audience].every(describes);
}

/** What can vouch for a name that looks like a category (see isCategory): company names, whole and word by word. */
export function brandWordsOf(names: string[]): Set<string> {
  const words = new Set<string>();
  for (const name of names) {
    words.add(nameKey(name));
    for (const word of nameKey(name).split(" ")) {
      if (word.length >= 2 && !GENERIC_WORDS.has(word) && !CATEGORY_HEADS.has(word) && !GLUE_WORDS.has(word)) words.add(word);
    }
  }
  return words;
}

// ---------------------------------------------------------------------------------------------

function isGenericWord(word: string, brandWords: ReadonlySet<string>): boolean {
  const lower = listedSpelling(word);
  // Category nouns and acronyms in any case and number: "CRM", "TVs", "Headphones", "E-Readers".
  if (GLUE_WORDS.has(lower) || GENERIC_ACRONYMS.has(lower) || GENERIC_ACRONYMS.has(lower.replace(/s$/, "")) || CATEGORY_HEADS.has(lower)) return true;
  if (brandWords.has(word.toLowerCase())) return false;
  if (/[.+@]/.test(word)) return false;
  if (/\d/.test(word)) return /^(?:19|20)\d\d$/.test(word) || GENERIC_SPECS.has(lower);
  // HubSpot, iPhone, ASICS; but a listed compound in any spelling ("Wi-Fi", "WiFi", "Open-Source").
  if (/^.+\p{Lu}/u.test(word)) return COMPOUNDS.has(letters(word)) && GENERIC_WORDS.has(lower);
  if (/^\p{Lu}/u.test(word)) return GENERIC_WORDS.has(lower);
  return true;
}

// A listed noun, or the plural of an English word: "parkas", "grinders", "purifiers".
function isCategoryNoun(word: string): boolean {
  const lower = listedSpelling(word);
  if (CATEGORY_HEADS.has(lower)) return true;
  if (!/^\p{Ll}+s$/u.test(lower) || /(?:ss|us|is)$/.test(lower)) return false;
  return isEnglishWord(singularOf(lower));
}

function singularOf(plural: string): string {
  return plural.endsWith("ies") ? `${plural.slice(0, -3)}y` : /(?:ch|sh|x)es$/.test(plural) ? plural.slice(0, -2) : plural.slice(0, -1);
}

function isTitleWord(word: string): boolean {
  const lower = listedSpelling(word);
  return isOrdinaryWord(lower) || GENERIC_WORDS.has(lower) || CATEGORY_HEADS.has(lower);
}

/** A word by its letters alone, for telling its spellings apart from none: "E-Reader", "eReader", "ereader" are "ereader". */
function letters(word: string): string {
  return word.toLowerCase().replace(/-/g, "");
}

/** A word as the lists spell it: a listed compound however it is written ("E-Reader", "eReader" → "e-reader"; "WiFi" → "wi-fi"), any other in lower case. */
function listedSpelling(word: string): string {
  return COMPOUNDS.get(letters(word)) ?? word.toLowerCase();
}

/** The words with a listed compound written apart joined as it is listed: "E Reader" → "E-Reader", "Wi Fi Routers" → "Wi-Fi Routers". */
function joinedCompounds(words: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = words[i + 1];
    if (next !== undefined && COMPOUNDS.has(letters(word + next)) && /^[\p{L}-]+$/u.test(word + next)) {
      joined.push(`${word}-${next}`);
      i++;
    } else joined.push(word);
  }
  return joined;
}

/**
 * A compound word ("E-Scooter", "e-bikes"; its parts letters) whose last part is an English word
 * and which the answer writes as a common noun, in lower case, in any spelling and either number
 * ("e-scooter", "e scooters", "escooter"): a kind of thing.
 */
function isSpokenCompound(word: string, answer: { commonNoun(word: string): boolean }): boolean {
  const parts = word.toLowerCase().split("-");
  const last = parts.at(-1) ?? "";
  if (parts.length < 2 || !parts.every((part) => /^\p{Ll}+$/u.test(part))) return false;
  const singular = /s$/.test(last) && isEnglishWord(singularOf(last)) ? singularOf(last) : last;
  if (!isEnglishWord(singular)) return false;
  const lasts = [singular, ...withPlurals([singular])].filter((form, index, all) => all.indexOf(form) === index);
  return lasts.some((end) => ["-", " ", ""].some((glue) => answer.commonNoun([...parts.slice(0, -1), end].join(glue))));
}

// "Purifiers", "Humidifiers": the plural of a rarer English word, which names a kind of thing
// more often than a brand does; a common one ("Buds", "Socks", "Projects") may well be a name.
function isRarePlural(lower: string): boolean {
  return isCategoryNoun(lower) && !CATEGORY_HEADS.has(lower) && !isOrdinaryWord(singularOf(lower));
}

// "Inc.", "Co.", "S.A." end in a period without ending a sentence.
function isAbbreviation(word: string): boolean {
  const bare = word.replace(/\.$/, "");
  return ABBREVIATIONS.has(bare.toLowerCase()) || /^(?:\p{L}\.)+\p{L}$/u.test(bare);
}

function stripWrappingQuotes(name: string): string {
  let result = name;
  while (result.length >= 2 && /^["'“”‘’`]/.test(result) && /["'“”‘’`]$/.test(result)) result = result.slice(1, -1).trim();
  return result;
}

function withPlurals(words: string[]): Set<string> {
  const all = new Set<string>();
  for (const word of words) {
    all.add(word);
    if (/[^aeiou]y$/.test(word)) all.add(`${word.slice(0, -1)}ies`);
    else if (/(?:s|x|ch|sh)$/.test(word)) all.add(`${word}es`);
    else all.add(`${word}s`);
  }
  return all;
}

/** Nouns that name a kind of thing, not a thing, in the singular (or uncountable). */
const HEAD_NOUNS = [
  "software",
  "tool",
  "app",
  "application",
  "platform",
  "service",
  "solution",
  "system",
  "program",
  "product",
  "provider",
  "brand",
  "company",
  "vendor",
  "manufacturer",
  "retailer",
  "store",
  "marketplace",
  "agency",
  "option",
  "alternative",
  "choice",
  "pick",
  "device",
  "gadget",
  "accessory",
  "appliance",
  "equipment",
  "gear",
  "shoe",
  "sneaker",
  "trainer",
  "boot",
  "sandal",
  "clothing",
  "apparel",
  "jacket",
  "backpack",
  "bag",
  "luggage",
  "suitcase",
  "headphone",
  "earbud",
  "earphone",
  "headset",
  "speaker",
  "soundbar",
  "laptop",
  "computer",
  "pc",
  "phone",
  "smartphone",
  "tablet",
  "camera",
  "lens",
  "drone",
  "monitor",
  "tv",
  "television",
  "watch",
  "smartwatch",
  "tracker",
  "router",
  "modem",
  "printer",
  "keyboard",
  "mouse",
  "mice",
  "charger",
  "cable",
  "battery",
  "console",
  "game",
  "toy",
  "mattress",
  "pillow",
  "bed",
  "chair",
  "desk",
  "vacuum",
  "cleaner",
  "blender",
  "maker",
  "machine",
  "coffee",
  "car",
  "vehicle",
  "suv",
  "ev",
  "bike",
  "bicycle",
  "scooter",
  "card",
  "bank",
  "account",
  "plan",
  "insurance",
  "loan",
  "mortgage",
  "broker",
  "exchange",
  "wallet",
  "course",
  "website",
  "site",
  "builder",
  "hosting",
  "host",
  "editor",
  "browser",
  "extension",
  "plugin",
  "manager",
  "assistant",
  "chatbot",
  "model",
  "framework",
  "library",
  "database",
  "suite",
  "subscription",
  "kit",
  "supplement",
  "vitamin",
  "protein",
  "powder",
  "cream",
  "moisturizer",
  "serum",
  "sunscreen",
  "shampoo",
  "conditioner",
  "cleanser",
  "antivirus",
  "firewall",
  "processor",
  "cpu",
  "gpu",
  "drive",
  "ssd",
  "network",
  "carrier",
  "airline",
  "hotel",
  "restaurant",
  "crm",
  "erp",
  "vpn",
  "cms",
  "lms",
  "e-reader",
  "e-book",
  "e-bike",
  "e-scooter",
];
/** HEAD_NOUNS and their plurals. */
const CATEGORY_HEADS = withPlurals(HEAD_NOUNS);
/** Heads that are a kind of thing without a plural: "Project Management Software". */
const MASS_HEADS = new Set(["software", "clothing", "apparel", "equipment", "gear", "luggage", "hosting", "insurance"]);

/** Capitalised words that still describe rather than name ("Best Running Shoes"). */
const GENERIC_WORDS = new Set([
  "best",
  "top",
  "leading",
  "popular",
  "good",
  "great",
  "cheap",
  "affordable",
  "budget",
  "premium",
  "luxury",
  "free",
  "paid",
  "open-source",
  "online",
  "cloud",
  "cloud-based",
  "web-based",
  "mobile",
  "desktop",
  "wireless",
  "bluetooth",
  "noise-cancelling",
  "noise-canceling",
  "cancelling",
  "canceling",
  "over-ear",
  "on-ear",
  "in-ear",
  "true",
  "running",
  "trail",
  "road",
  "hiking",
  "walking",
  "training",
  "gaming",
  "office",
  "home",
  "smart",
  "electric",
  "portable",
  "project",
  "management",
  "task",
  "team",
  "collaboration",
  "productivity",
  "note-taking",
  "password",
  "email",
  "marketing",
  "accounting",
  "sales",
  "customer",
  "personal",
  "business",
  "enterprise",
  "small",
  "video",
  "photo",
  "editing",
  "streaming",
  "music",
  "security",
  "fitness",
  "health",
  "other",
  "various",
  "similar",
  "new",
  "latest",
  "high-end",
  "mid-range",
  "entry-level",
  "professional",
  "ergonomic",
  "standing",
  "robot",
  "robotic",
  "cordless",
  "digital",
  "social",
  "media",
  "content",
  "design",
  "file",
  "storage",
  "backup",
  "remote",
  "communication",
  "messaging",
  "payroll",
  "invoicing",
  "ecommerce",
  "e-commerce",
  "credit",
  "travel",
  "rewards",
  "men's",
  "women's",
  "kids",
  "ai-powered",
  "recommended",
  "alternative",
  "wi-fi",
]);

/** Acronyms that name a category (an all-caps "ASICS" or "HP" is a brand). */
const GENERIC_ACRONYMS = new Set([
  "crm",
  "erp",
  "vpn",
  "ai",
  "seo",
  "hr",
  "saas",
  "cms",
  "lms",
  "ats",
  "pos",
  "it",
  "ev",
  "suv",
  "tv",
  "pc",
  "gps",
  "led",
  "oled",
  "usb",
  "ssd",
  "cpu",
  "gpu",
  "anc",
  "diy",
  "hepa",
  "uv",
  "hdr",
  "apy",
  "ira",
  "esim",
  "nas",
  "ups",
  "lcd",
]);
const GENERIC_SPECS = new Set(["4k", "8k", "5g", "4g", "1080p", "1440p", "2-in-1", "3d", "2d", "360", "24/7"]);
const GLUE_WORDS = new Set(["and", "&", "or", "for", "with", "of", "to", "in", "on", "the", "a", "an", "-", "/"]);
/**
 * The listed words written with a hyphen (and their plurals), by their letters alone: a compound
 * is one word whether it is written "e-reader", "e reader", "ereader" or "eReader".
 */
const COMPOUNDS: ReadonlyMap<string, string> = new Map(
  [...CATEGORY_HEADS, ...GENERIC_WORDS].filter((word) => /^\p{L}+(?:-\p{L}+)+$/u.test(word)).map((word) => [letters(word), word]),
);

/** One-word labels an answer puts before a name ("Winner: X"). */
const LABELS = new Set(["winner", "runner-up", "alternative", "verdict", "pick", "bonus", "also", "upgrade", "splurge", "budget", "overall", "recommendation"]);
/** What joins a category to whom it is for ("Mattresses For Side Sleepers"). */
const AUDIENCE_WORDS = new Set(["for", "with"]);
const LEADING_CONJUNCTIONS = new Set(["and", "or", "also", "but", "nor"]);
const ARTICLES = new Set(["the", "a", "an"]);
const LEADING_ADJECTIVES = new Set([
  "best",
  "top",
  "most",
  "good",
  "great",
  "ideal",
  "perfect",
  "leading",
  "popular",
  "excellent",
  "following",
  "other",
  "right",
  "main",
]);
const ABBREVIATIONS = new Set(["inc", "co", "corp", "ltd", "llc", "plc", "bros", "jr", "sr", "st", "dr", "mr", "mrs", "ms", "no", "vs", "etc", "intl", "mfg"]);

/** Brands whose own name ends in 's, which rule c must not cut. */
const POSSESSIVE_BRANDS = new Set([
  "hill's",
  "sainsbury's",
  "nando's",
  "chili's",
  "applebee's",
  "papa john's",
  "dillard's",
  "levi's",
  "mcdonald's",
  "kiehl's",
  "trader joe's",
  "ben & jerry's",
  "kellogg's",
  "lowe's",
  "macy's",
  "kohl's",
  "wendy's",
  "domino's",
  "hershey's",
  "reese's",
  "carter's",
  "dick's sporting goods",
  "sam's club",
  "moe's",
  "denny's",
  "arby's",
  "hellmann's",
  "french's",
  "land o'lakes",
  "annie's",
  "campbell's",
  "welch's",
]);
