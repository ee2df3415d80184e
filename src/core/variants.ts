import { MAX_VARIANT_REASONING } from "#src/contract/variants.ts";
import { withoutInvisible } from "./display-text.ts";
import { nameKey } from "./names.ts";
import type { JsonObjectSchema, StructuredRequest } from "./structured.ts";

/** Spec §2: five variants per query. */
export const VARIANT_COUNT = 5;

/** The shape the model answers in: exactly what the variants page shows. */
export const VARIANTS_JSON_SCHEMA: JsonObjectSchema = {
  type: "object",
  properties: {
    variants: {
      type: "array",
      description: `Exactly ${VARIANT_COUNT} different queries a real person might type for the same need.`,
      items: {
        type: "object",
        properties: {
          query: { type: "string", description: "The query as the person would type it into an AI assistant." },
          reasoning: { type: "string", description: "One line: who would type it, or what angle it takes." },
        },
        required: ["query", "reasoning"],
        additionalProperties: false,
      },
    },
  },
  required: ["variants"],
  additionalProperties: false,
};

/**
 * Asks for rephrasings a real person might type for the same need: different wording, a
 * different intent angle (comparison, budget, alternatives), more or less specific, another
 * persona. The query is quoted as data, never as instructions.
 */
export function variantsRequest(query: string): StructuredRequest {
  return {
    name: "variants",
    description: "Record the query variants.",
    prompt: [
      `Here is a query someone typed into an AI assistant to find products or companies:`,
      "",
      `<query>${query.trim()}</query>`,
      "",
      `Write ${VARIANT_COUNT} other queries that real people with the same need would type, to see how AI assistants answer them.`,
      "Vary them: different wording; a different intent angle (a comparison, a budget, alternatives, a specific use);",
      "more or less specific; a different persona (a beginner, a professional, a small business).",
      "Keep each one short and natural, as typed, in the query's language. Do not repeat the original query.",
      "For each, one line of reasoning: who would type it, or what angle it takes.",
    ].join("\n"),
    schema: VARIANTS_JSON_SCHEMA,
  };
}

/**
 * Asks for questions buyers in a category would put to an AI assistant when choosing a product,
 * the kind a brand wants to be named in: the same answer shape as variants, so one parser reads
 * both. The category and brand are quoted as data, never as instructions.
 */
export function questionsRequest(category: string, brand: string | undefined): StructuredRequest {
  return {
    name: "variants",
    description: "Record the buyer questions.",
    prompt: [
      "Here is a product category, and a brand that sells in it:",
      "",
      `<category>${category.trim()}</category>`,
      ...(brand?.trim() ? [`<brand>${brand.trim()}</brand>`] : []),
      "",
      `Write ${VARIANT_COUNT} questions that real buyers choosing a product in this category would type into an AI assistant.`,
      "Vary them: the best options, comparisons, a budget, alternatives, a specific use or team size, a beginner or a professional.",
      "Do not name the brand in them: they are what buyers ask before they know which brand to pick.",
      "Keep each one short and natural, as typed, in the category's language.",
      "For each, one line of reasoning: who would ask it, or what angle it takes.",
    ].join("\n"),
    schema: VARIANTS_JSON_SCHEMA,
  };
}

/**
 * The variants of a model's answer, tolerant of how it comes: trimmed, empty ones and repeats
 * (of each other or of the original, case-insensitively) left out, at most VARIANT_COUNT.
 */
export function parseVariants(value: unknown, original: string): Array<{ query: string; reasoning: string }> {
  const list = value && typeof value === "object" && "variants" in value && Array.isArray(value.variants) ? value.variants : Array.isArray(value) ? value : [];
  const seen = new Set([nameKey(original)]);
  const variants: Array<{ query: string; reasoning: string }> = [];
  for (const item of list as unknown[]) {
    const query = typeof item === "string" ? item : item && typeof item === "object" && "query" in item && typeof item.query === "string" ? item.query : "";
    const reasoning =
      item && typeof item === "object" && "reasoning" in item && typeof item.reasoning === "string"
        ? withoutInvisible(item.reasoning).trim().slice(0, MAX_VARIANT_REASONING)
        : "";
    // As a person's query must be (src/contract/visible-text.ts): the page runs and saves it as one.
    const text = withoutInvisible(query).replace(/\s+/g, " ").trim().slice(0, 500);
    if (!text || seen.has(nameKey(text))) continue;
    seen.add(nameKey(text));
    variants.push({ query: text, reasoning });
    if (variants.length === VARIANT_COUNT) break;
  }
  return variants;
}
