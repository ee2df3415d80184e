/** A JSON Schema object as the three SDKs accept it (OpenAI schema, Anthropic input_schema, Gemini responseJsonSchema). */
export interface JsonObjectSchema {
  type: "object";
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
  [keyword: string]: unknown;
}

/**
 * A tool-less call that must answer in one JSON shape (structured output): its name (OpenAI's
 * format name, Anthropic's `record_<name>` tool), what the shape is for, the prompt, the schema.
 * Adapters send it through their SDK's own structured-output feature.
 */
export type StructuredRequest = { name: string; description: string; prompt: string; schema: JsonObjectSchema };
