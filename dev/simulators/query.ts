/**
 * What a query asks, read from its shape alone (no catalogue): the need without "best"/"top",
 * the qualifier ("for startups"), names from "A vs B" / "alternatives to X" / "X reviews", and
 * whether it wants products at all. Answers and query variants read queries through this.
 */

export interface Need {
  /** As typed, without end punctuation. */
  text: string;
  /** What is wanted, without "best"/"what are the" ("running shoes for beginners"). */
  core: string;
  /** core without its qualifier ("running shoes"). */
  head: string;
  /** core's narrowing tail ("for beginners", "under $100"), or "". */
  qualifier: string;
  /** Whether it is phrased "best X" (or "top", "good", "recommended"). */
  shopping: boolean;
  /** Whether it asks for something to buy or use: a "best", "vs", "review", "cheap", "under $N"… */
  wantsProducts: boolean;
  /** Whether it is a question ("what…", "how…", "is…", or ends in "?"). */
  question: boolean;
  /** The two or more names of "A vs B", in the person's spelling. */
  versus: string[];
  /** The name of "alternatives to X". */
  alternativesTo?: string;
  /** The name of "X reviews", "is X any good", "X pricing". */
  subject?: string;
  /** Whether it mentions a price limit or cheapness. */
  budget: boolean;
}

/** The person's query: the prompt up to its first blank line. */
export function userQuery(prompt: string): string {
  const head = prompt.split("\n\n")[0]?.trim() ?? "";
  return head || prompt.trim();
}

export function readNeed(query: string): Need {
  const text = query
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[?!.]+$/, "")
    .trim();
  const wanted = SHOPPING.exec(text)?.[1];
  const core = wanted ?? text;
  const [, head = core, tail = ""] = QUALIFIER.exec(core) ?? [];
  // Names before the qualifier ("A vs B for teams"), else names that hold a "for" ("alternatives for X").
  const inHead = namesOf(head);
  const names = inHead.versus.length > 0 || inHead.alternativesTo ? inHead : namesOf(core);
  const split = names === inHead || (!names.versus.length && !names.alternativesTo);
  const subject = names.versus.length || names.alternativesTo ? undefined : subjectOf(text);
  return {
    text,
    core,
    head: split ? head : core,
    qualifier: split ? tail : "",
    shopping: wanted !== undefined && names.versus.length === 0 && !names.alternativesTo,
    wantsProducts: wanted !== undefined || names.versus.length > 0 || names.alternativesTo !== undefined || subject !== undefined || PRODUCT_SIGNAL.test(text),
    question: QUESTION.test(text) || /\?\s*$/.test(query),
    versus: names.versus.map(bare),
    ...(names.alternativesTo ? { alternativesTo: bare(names.alternativesTo) } : {}),
    ...(subject ? { subject: bare(subject) } : {}),
    budget: BUDGET.test(text),
  };
}

/** Without a leading article. */
export function bare(text: string): string {
  return text.replace(/^(?:the|a|an)\s+/i, "").trim();
}

/** The task of "how do I X" / "how to X", or undefined. */
export function howToTask(text: string): string | undefined {
  return HOW_TO.exec(text)?.[1];
}

// ---------------------------------------------------------------------------------------------

const SHOPPING = /^(?:(?:what|which)(?:'s|\s+is|\s+are)?\s+)?(?:(?:the|a|some)\s+)?(?:best|top|good|great|recommended|cheapest)(?:\s+\d+)?\s+(.+)$/i;
const VERSUS_SPLIT = /\s+(?:vs\.?|versus|v\.?)\s+/i;
const VERSUS = [
  /^(?:(?:compare|comparing)\s+)?(.+?)\s+(?:compared (?:to|with))\s+(.+)$/i,
  /^(?:which is better|should i (?:use|get|buy|choose|pick))[,:]?\s+(.+?)\s+or\s+(.+)$/i,
  /^compare\s+(.+?)\s+(?:and|with|to)\s+(.+)$/i,
];
const ALTERNATIVES = [
  /^(?:(?:best|good|free|cheap(?:er)?|top)\s+)?(?:alternatives?|competitors?|replacements?)\s+(?:to|for|of)\s+(.+)$/i,
  /^(.+?)\s+(?:alternatives?|competitors?)$/i,
  /^(?:(?:best\s+)?(?:apps?|tools?|software|something|anything|sites?|services?|products?))\s+(?:like|similar to)\s+(.+)$/i,
  /^(?:what(?:'s| is) better than|what to use instead of)\s+(.+)$/i,
];
const SUBJECT = [
  /^(?:is|are)\s+(.+?)\s+(?:any good|good|legit|worth it|worth the money|reliable|safe|a scam|trustworthy)$/i,
  /^(.+?)\s+(?:reviews?|pricing|prices?|cost|ratings?|pros and cons|worth it|legit)$/i,
  /^(?:reviews? of|tell me about|what do you know about|have you heard of|what do people say about)\s+(.+)$/i,
];
const QUALIFIER = /^(.+?)\s+((?:for|under|below|with|without|in|near|on a|around)\s.+)$/i;
const QUESTION = /^(?:what|who|whom|whose|where|when|why|which|how|is|are|was|were|can|could|should|would|will|do|does|did)\b/i;
const HOW_TO = /^how (?:do (?:i|you|we) |can (?:i|you|we) |to |should (?:i|you|we) |would (?:i|you) )(.+)$/i;
const PRODUCT_SIGNAL =
  /\b(?:best|top|recommend\w*|buy|buying|purchase|cheap\w*|affordable|budget|inexpensive|reviews?|vs\.?|versus|alternatives?|compare\w*|comparison|worth it|deals?|choose|choosing|pick|rated|options|brands?|should i (?:get|use|try))\b|\bunder \$?\d/i;
const BUDGET = /\b(?:cheap\w*|budget|affordable|inexpensive|low[- ]cost|under|below|less than|value|bargain)\b/i;

function namesOf(core: string): { versus: string[]; alternativesTo?: string } {
  const parts = core
    .split(VERSUS_SPLIT)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length >= 2) return { versus: parts.map((part, i) => (i === 0 ? part.replace(/^(?:compare|comparing)\s+/i, "") : part)) };
  for (const pattern of VERSUS) {
    const match = pattern.exec(core);
    if (match?.[1] && match[2]) return { versus: [match[1], match[2]] };
  }
  for (const pattern of ALTERNATIVES) {
    const match = pattern.exec(core);
    if (match?.[1]) return { versus: [], alternativesTo: match[1] };
  }
  return { versus: [] };
}

function subjectOf(text: string): string | undefined {
  for (const pattern of SUBJECT) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1];
  }
  return undefined;
}
