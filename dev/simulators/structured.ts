/** What a tool-less structured-output call gets back, by what it asks for (extraction or variants). */
import { extractCatalogueNames } from "./extract.ts";
import { isObject, type RequestKind } from "./http.ts";
import type { Rng } from "./random.ts";
import { composeVariants } from "./variants.ts";

export type StructuredKind = Exclude<RequestKind, "search">;

export function structuredAnswer(kind: StructuredKind, prompt: string, rng: Rng): object {
  return kind === "variants" ? { variants: composeVariants(rng, prompt) } : extractCatalogueNames(prompt);
}

/** By the call's name (OpenAI's format name, Anthropic's tool name without `record_`). */
export function kindOfName(name: unknown): StructuredKind {
  return name === "variants" ? "variants" : "extraction";
}

/** By the schema, for a call without a name (Gemini's): a top-level `variants` property. */
export function kindOfSchema(schema: unknown): StructuredKind {
  return isObject(schema) && isObject(schema.properties) && "variants" in schema.properties ? "variants" : "extraction";
}
