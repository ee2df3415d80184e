import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { ProviderId } from "#src/contract/provider-schemas.ts";

/** Where the labelled answers live, one JSON file each (tests/fixtures/answers/README.md). */
export const FIXTURES_DIR = join(import.meta.dir, "../../tests/fixtures/answers");

/** The failure classes a fixture exercises; the report counts rows per class. */
export const FAILURE_CLASSES = [
  "categories",
  "negatives",
  "quoted-names",
  "emphasised-names",
  "truncation",
  "citation-noise",
  "tables",
  "brands-unlike-products",
  "common-word-brands",
  "possessives",
  "refusal",
] as const;

/**
 * The mistakes a small extraction model makes, each labelled where a fixture's `extraction` makes
 * it: a name the answer never gives (invented; a parent company from the model's own knowledge,
 * unnamed-company), a category, a piece of a name, a possessive, a name the answer says it could
 * not find, a misspelling, a company listed as a product.
 */
export const EXTRACTOR_ERROR_KINDS = [
  "invented",
  "unnamed-company",
  "category",
  "fragment",
  "possessive",
  "not-found",
  "misspelt",
  "company-as-product",
] as const;
export type ExtractorErrorKind = (typeof EXTRACTOR_ERROR_KINDS)[number];

/** A truth entry: one name, or the spellings that all count as that one item. */
const Names = v.array(v.union([v.string(), v.pipe(v.array(v.string()), v.minLength(1))]));
const WireBody = v.record(v.string(), v.unknown());

export const AnswerFixture = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/)),
  provider: ProviderId,
  category: v.string(),
  classes: v.array(v.picklist(FAILURE_CLASSES)),
  query: v.string(),
  note: v.optional(v.string()),
  truth: v.object({
    products: Names,
    companies: Names,
    /** Named in passing (a retailer, a discontinued product): neither a hit nor a miss. */
    optional: v.optional(v.array(v.string()), []),
    /** Descriptions of a kind of thing that the answer or its JSON lists; keeping one is a miss. */
    categories: v.optional(v.array(v.string()), []),
    /** What the answer says it found nothing about, and companies known only through it. */
    notFound: v.optional(v.array(v.string()), []),
    cited: v.array(v.string()),
    retrieved: v.array(v.string()),
    truncated: v.boolean(),
  }),
  /** The mistakes the recorded extraction makes; names not in the answer must never be kept. */
  extractorErrors: v.optional(v.array(v.object({ name: v.string(), kind: v.picklist(EXTRACTOR_ERROR_KINDS) })), []),
  /** The search call's response body, in the provider's wire format: the answer to the query as typed. */
  response: WireBody,
  /** The extraction call's response body (the small model reading the answer), in the same wire format. */
  extraction: WireBody,
  /** Gemini: grounding-redirect token → the page it leads to. */
  redirects: v.optional(v.record(v.string(), v.string()), {}),
});
export type AnswerFixture = v.InferOutput<typeof AnswerFixture>;

/** Every fixture, by file name; a malformed one stops the run, naming its file. */
export function loadFixtures(dir = FIXTURES_DIR): AnswerFixture[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      const parsed = v.safeParse(AnswerFixture, JSON.parse(readFileSync(join(dir, file), "utf8")));
      if (!parsed.success) throw new Error(`${file}: ${v.summarize(parsed.issues)}`);
      if (`${parsed.output.id}.json` !== file) throw new Error(`${file}: its id is ${parsed.output.id}`);
      return parsed.output;
    });
}
