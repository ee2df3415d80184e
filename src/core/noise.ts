import { nameKey } from "./names.ts";

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
  name = stripWrappingQuotes(name).replace(/[\s,;:]+$/, "");
  const words = name.split(" ");
  if (words.length <= 2 && name.endsWith(".") && !isAbbreviation(words.at(-1) ?? "")) name = name.slice(0, -1);
  if (/['’]s$/.test(name) && !POSSESSIVE_BRANDS.has(nameKey(name))) name = name.slice(0, -2).trimEnd();
  return name;
}

/**
 * Rule b: text that is not a name — shorter than 2 characters, no letters or digits, more than
 * 8 words, a sentence (ends in "." after 3+ words, or "?"), a name with an explanation after
 * ": " or a spaced dash ("Notion: great for docs"), or a phrase starting with a conjunction or
 * article + adjective ("and Asana", "The best option").
 */
export function isFragment(name: string): boolean {
  if (name.length < 2 || !/[\p{L}\p{N}]/u.test(name)) return true;
  const words = name.split(" ");
  if (words.length > 8) return true;
  if (name.endsWith("?")) return true;
  if (name.endsWith(".") && words.length >= 3 && !isAbbreviation(words.at(-1) ?? "")) return true;
  const explanation = /(?::\s|\s[-–—]\s)(.+)$/.exec(name)?.[1];
  if (explanation !== undefined && (/^\p{Ll}/u.test(explanation) || explanation.split(" ").length >= 4)) return true;
  const first = words[0]?.toLowerCase() ?? "";
  const second = words[1]?.toLowerCase() ?? "";
  if (LEADING_CONJUNCTIONS.has(first)) return true;
  return ARTICLES.has(first) && LEADING_ADJECTIVES.has(second);
}

/**
 * Rule a: a product category is not a product. A name is a category when its last word is a
 * generic category noun ("software", "shoes", "headphones", "services", "CRM", …) and none of its
 * words looks like a brand. A word looks like a brand when it
 *  - has a capital after its first letter (HubSpot, iPhone, ClickUp), or is an all-caps word that
 *    is not a generic acronym (ASICS; but CRM, VPN, AI are generic);
 *  - contains a digit, other than a year or a generic spec like 4K or 5G (Pegasus 41, 1Password);
 *  - contains "." or "+" (monday.com, Disney+);
 *  - is capitalised and not a known generic word ("Nike", "Apple" — but not "Running", "Best");
 *  - is one of `brandWords`, the words of the company names in the same answer, so that a
 *    lower-cased "hubspot crm" survives when HubSpot is among the companies.
 * Lower-case words are generic ("project management tools"), so a brand typed in lower case and
 * ending in a category noun is only kept through `brandWords`.
 */
export function isCategory(name: string, brandWords: ReadonlySet<string> = new Set()): boolean {
  const words = name.split(" ").map((word) => word.replace(/^[("'“‘]+|[)"'”’,.!]+$/g, ""));
  const head = words.at(-1)?.toLowerCase() ?? "";
  if (!CATEGORY_HEADS.has(head)) return false;
  return words.every((word) => word === "" || isGenericWord(word, brandWords));
}

/** The words of company names that can vouch for a lower-case product name (see isCategory). */
export function brandWordsOf(names: string[]): Set<string> {
  const words = new Set<string>();
  for (const name of names) {
    for (const word of nameKey(name).split(" ")) {
      if (word.length >= 2 && !GENERIC_WORDS.has(word) && !CATEGORY_HEADS.has(word) && !GLUE_WORDS.has(word)) words.add(word);
    }
  }
  return words;
}

/**
 * Rule e, per entry: details that say the model found nothing ("No information found",
 * "I couldn't find reliable reviews", "This product does not appear to exist"). Only a leading
 * statement counts, so "Great battery; no information on 2026 pricing" keeps its product.
 */
export function detailsSayNotFound(details: string): boolean {
  return NOT_FOUND_DETAILS_START.test(details.trim()) || NOT_FOUND_DETAILS_ANYWHERE.test(details);
}

/**
 * Rule e, from the answer: the things the answer says it found nothing about, e.g. "the Zorblax
 * 3000" from "I couldn't find any information about the Zorblax 3000, but…" or "Zorblax" from
 * "Zorblax does not appear to exist". Each subject stops at the end of its clause.
 */
export function notFoundSubjects(answerText: string): string[] {
  const text = answerText.replace(/[’‘]/g, "'");
  const subjects: string[] = [];
  for (const match of text.matchAll(NOT_FOUND_LEAD)) {
    const subject = cutClause(stripFiller(text.slice(match.index + match[0].length, match.index + match[0].length + 300)));
    if (subject) subjects.push(subject);
  }
  for (const match of text.matchAll(DOES_NOT_EXIST)) {
    const before = text.slice(Math.max(0, match.index - 200), match.index);
    const boundary = Math.max(...[...before.matchAll(/[,;:!?()[\]{}"“”\n]|\.\s/g)].map((m) => m.index + m[0].length), 0);
    const subject = before.slice(boundary).trim();
    if (subject) subjects.push(subject);
  }
  return subjects;
}

/**
 * Whether `name` occurs in `subject` as whole words, case-insensitively, and not as a possessive
 * ("Sony's 2026 lineup" is not about Sony). strict also refuses an occurrence that continues
 * with a capitalised word or a number, i.e. is only part of a longer name ("Notion" in "Notion
 * Plus").
 */
export function mentions(subject: string, name: string, strict: boolean): boolean {
  const haystack = subject.replace(/[’‘]/g, "'").replace(/\s+/g, " ");
  const needle = name.replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
  if (needle === "") return false;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(needle)}(?![\\p{L}\\p{N}])`, "giu");
  for (const match of haystack.matchAll(pattern)) {
    const after = haystack.slice(match.index + match[0].length);
    if (/^'s(?![\p{L}\p{N}])/u.test(after)) continue;
    if (strict && /^ (?:\p{Lu}|\p{N})/u.test(after)) continue;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------

function isGenericWord(word: string, brandWords: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  // Category nouns and acronyms in any case and number: "CRM", "TVs", "Headphones".
  if (GLUE_WORDS.has(lower) || GENERIC_ACRONYMS.has(lower) || GENERIC_ACRONYMS.has(lower.replace(/s$/, "")) || CATEGORY_HEADS.has(lower)) return true;
  if (brandWords.has(lower)) return false;
  if (/[.+@]/.test(word)) return false;
  if (/\d/.test(word)) return /^(?:19|20)\d\d$/.test(word) || GENERIC_SPECS.has(lower);
  if (/^.+\p{Lu}/u.test(word)) return false; // HubSpot, iPhone, ASICS
  if (/^\p{Lu}/u.test(word)) return GENERIC_WORDS.has(lower);
  return true;
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

// Leading words that say what kind of mention follows rather than name the thing.
function stripFiller(text: string): string {
  let rest = text.trimStart();
  for (;;) {
    const next = rest.replace(FILLER, "");
    if (next === rest) return rest;
    rest = next;
  }
}

function cutClause(text: string): string {
  const end = text.search(CLAUSE_END);
  return (end === -1 ? text : text.slice(0, end)).trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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

/** Nouns that name a kind of thing, not a thing. Plurals are added automatically. */
const CATEGORY_HEADS = withPlurals([
  "software", "tool", "app", "application", "platform", "service", "solution", "system", "program", "product", "provider",
  "brand", "company", "vendor", "manufacturer", "retailer", "store", "marketplace", "agency", "option", "alternative", "choice", "pick",
  "device", "gadget", "accessory", "appliance", "equipment", "gear", "shoe", "sneaker", "trainer", "boot", "sandal", "clothing", "apparel",
  "jacket", "backpack", "bag", "luggage", "suitcase", "headphone", "earbud", "earphone", "headset", "speaker", "soundbar", "laptop",
  "computer", "pc", "phone", "smartphone", "tablet", "camera", "lens", "drone", "monitor", "tv", "television", "watch", "smartwatch",
  "tracker", "router", "modem", "printer", "keyboard", "mouse", "mice", "charger", "cable", "battery", "console", "game", "toy",
  "mattress", "pillow", "bed", "chair", "desk", "vacuum", "cleaner", "blender", "maker", "machine", "coffee", "car", "vehicle", "suv",
  "ev", "bike", "bicycle", "scooter", "card", "bank", "account", "plan", "insurance", "loan", "mortgage", "broker", "exchange",
  "wallet", "course", "website", "site", "builder", "hosting", "host", "editor", "browser", "extension", "plugin", "manager",
  "assistant", "chatbot", "model", "framework", "library", "database", "suite", "subscription", "kit", "supplement", "vitamin",
  "protein", "powder", "cream", "moisturizer", "serum", "sunscreen", "shampoo", "conditioner", "cleanser", "antivirus", "firewall",
  "processor", "cpu", "gpu", "drive", "ssd", "network", "carrier", "airline", "hotel", "restaurant", "crm", "erp", "vpn", "cms", "lms",
]);

/** Capitalised words that still describe rather than name ("Best Running Shoes"). */
const GENERIC_WORDS = new Set([
  "best", "top", "leading", "popular", "good", "great", "cheap", "affordable", "budget", "premium", "luxury", "free", "paid",
  "open-source", "online", "cloud", "cloud-based", "web-based", "mobile", "desktop", "wireless", "bluetooth", "noise-cancelling",
  "noise-canceling", "over-ear", "on-ear", "in-ear", "true", "running", "trail", "road", "hiking", "walking", "training", "gaming",
  "office", "home", "smart", "electric", "portable", "project", "management", "task", "team", "collaboration", "productivity",
  "note-taking", "password", "email", "marketing", "accounting", "sales", "customer", "personal", "business", "enterprise", "small",
  "video", "photo", "editing", "streaming", "music", "security", "fitness", "health", "other", "various", "similar", "new", "latest",
  "high-end", "mid-range", "entry-level", "professional", "ergonomic", "standing", "robot", "robotic", "cordless", "digital", "social",
  "media", "content", "design", "file", "storage", "backup", "remote", "communication", "messaging", "payroll", "invoicing",
  "ecommerce", "e-commerce", "credit", "travel", "rewards", "men's", "women's", "kids", "ai-powered", "recommended", "alternative",
]);

/** Acronyms that name a category (an all-caps "ASICS" or "HP" is a brand). */
const GENERIC_ACRONYMS = new Set(["crm", "erp", "vpn", "ai", "seo", "hr", "saas", "cms", "lms", "ats", "pos", "it", "ev", "suv", "tv", "pc", "gps", "led", "oled", "usb", "ssd", "cpu", "gpu", "anc", "diy"]);
const GENERIC_SPECS = new Set(["4k", "8k", "5g", "4g", "1080p", "1440p", "2-in-1", "3d", "2d", "360", "24/7"]);
const GLUE_WORDS = new Set(["and", "&", "or", "for", "with", "of", "to", "in", "on", "the", "a", "an", "-", "/"]);

const LEADING_CONJUNCTIONS = new Set(["and", "or", "also", "but", "nor"]);
const ARTICLES = new Set(["the", "a", "an"]);
const LEADING_ADJECTIVES = new Set(["best", "top", "most", "good", "great", "ideal", "perfect", "leading", "popular", "excellent", "following", "other", "right", "main"]);
const ABBREVIATIONS = new Set(["inc", "co", "corp", "ltd", "llc", "plc", "bros", "jr", "sr", "st", "dr", "mr", "mrs", "ms", "no", "vs", "etc", "intl", "mfg"]);

/** Brands whose own name ends in 's, which rule c must not cut. */
const POSSESSIVE_BRANDS = new Set(
  ["levi's", "mcdonald's", "kiehl's", "trader joe's", "ben & jerry's", "kellogg's", "lowe's", "macy's", "kohl's", "wendy's", "domino's", "hershey's", "reese's", "carter's", "dick's sporting goods", "sam's club", "moe's", "denny's", "arby's", "hellmann's", "french's", "land o'lakes", "annie's", "campbell's", "welch's"],
);

const NOT_FOUND_DETAILS_START =
  /^(?:note:\s*)?(?:(?:i|we|the search|search(?:es)?|web search|searching)\s+)?(?:(?:was|were)\s+)?(?:no (?:information|info|results?|reliable|data|details|mentions?|evidence)|could\s?n['’]?o?t find|can['’]t find|cannot find|not found|unable to find|(?:was|were)\s?n['’]?o?t able to find|did\s?n['’]?o?t find|found nothing|nothing (?:was )?found)/i;
const NOT_FOUND_DETAILS_ANYWHERE =
  /(?:does not|doesn['’]t|did not|didn['’]t) (?:appear|seem) to exist|no (?:reliable |verifiable )?information (?:was |is )?(?:found|available)|could not be (?:found|verified)|not found in (?:the )?(?:search|web)/i;

// "I couldn't find …", "my searches turned up nothing about …", "No results for …". The finder
// must be first person or the search, so "you won't find a better tool than Notion" is no lead.
const FINDER = String.raw`\b(?:I(?:'m|'ve)?|we(?:'ve)?|(?:my|our|the|web) search(?:es)?|search(?:es| results)?)\s+(?:(?:also|still|really|unfortunately|just|simply)\s+)?`;
const NEGATED_FIND = String.raw`(?:could\s?n[o']?t|can'?t|cannot|can not|(?:am|was|were|are)\s+not able to|(?:was|were)n't able to|(?:am|was|were|are)?\s*unable to|did\s?n[o']?t|do\s?n[o']?t|failed to|ha(?:ve|s)\s?n[o']?t(?:\s+been able to)?)\s+(?:find|found|locate|identify|turn up|turned up|return|surface)`;
const NOUNS = String.raw`(?:information|info|results?|details|data|mentions?|evidence|records?|trace)\b`;
const FOUND_NOTHING = String.raw`(?:found|find|turned up|returned|yielded|surfaced)\s+(?:nothing|no(?=\s+(?:\w+\s+)?${NOUNS}))`;
const NOT_FOUND_LEAD = new RegExp(
  String.raw`${FINDER}(?:${NEGATED_FIND}|${FOUND_NOTHING})|\b(?:there\s+(?:is|was|are|were)\s+)?no\s+(?=(?:(?:reliable|specific|credible|verifiable|public|current|recent|relevant)\s+)?${NOUNS})`,
  "gi",
);
const DOES_NOT_EXIST = /\b(?:does not|doesn't|did not|didn't)\s+(?:appear|seem)\s+to\s+exist|\b(?:is|was)\s*n[o']?t\s+a\s+real\s+(?:product|brand|company)/gi;
// Lower-case only: "On Cloudmonster" after "information on" is a name, not filler.
const FILLER =
  /^(?:any|anything|much|reliable|specific|credible|verifiable|public|current|recent|relevant|up-to-date|detailed|further|additional|information|info|details|data|results?|evidence|records?|reviews?|trace|listings?|mentions?|mentioning|that|called|named|matching|about|on|for|regarding|concerning|related|to|of|the|a|an|such|products?|brands?|company|companies|models?)\b\s*/;
const CLAUSE_END = /[,;:!?()[\]{}"“”\n]|\.(?:\s|$)|\s(?:but|however|though|although|because|since|so|yet|which|that|who|while|whereas|on|at|in|from|via|through|within|across|as|than|-|–|—)(?:\s|$)/;
