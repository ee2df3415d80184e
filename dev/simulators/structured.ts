/** What a tool-less structured-output call gets back, by what it asks for (extraction or variants). */
import { extractCatalogueNames } from "./extract.ts";
import { withMistakes } from "./extractor-errors.ts";
import { isObject, type ProviderContext, type RequestKind } from "./http.ts";
import { composeVariants } from "./variants.ts";

export type StructuredKind = Exclude<RequestKind, "search" | "model">;

/**
 * Variants, or the extraction as a small model answers it: the names the answer recommends
 * (extract.ts), now and then with one of a small model's mistakes (extractor-errors.ts).
 */
export function structuredAnswer(kind: StructuredKind, prompt: string, context: Pick<ProviderContext, "rng" | "extractorErrors">): object {
  return kind === "variants"
    ? { variants: composeVariants(context.rng, prompt) }
    : withMistakes(extractCatalogueNames(prompt), prompt, context.extractorErrors);
}

/** By the call's name (OpenAI's format name, Anthropic's tool name without `record_`). */
export function kindOfName(name: unknown): StructuredKind {
  return name === "variants" ? "variants" : "extraction";
}

/** By the schema, for a call without a name (Gemini's): a top-level `variants` property. */
export function kindOfSchema(schema: unknown): StructuredKind {
  return isObject(schema) && isObject(schema.properties) && "variants" in schema.properties ? "variants" : "extraction";
}
