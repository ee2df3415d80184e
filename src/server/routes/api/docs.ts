import { openapi } from "@elysiajs/openapi";
import { toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";

/**
 * The API reference at /api/docs (spec at /api/docs/json), generated from the routes: each
 * declares its response schema (`response:`, which Elysia also checks on the way out) and
 * documents its body with jsonBody (bodies are parsed in the handler, for the spec's messages).
 */
export function apiDocs() {
  return openapi({
    path: "/api/docs",
    mapJsonSchema: { valibot: jsonSchemaOf },
    specPath: "/api/docs/json",
    exclude: { paths: ["/*", "/assets/*", "/api/*"], staticFile: true },
    documentation: {
      info: {
        title: "AI Search Comparison API",
        version: "1",
        description:
          "One query to OpenAI, Anthropic and Gemini with web search on: products, companies and cited sources per model, overlaps, and frequencies over iterations. " +
          "All calls send cookies (credentials: include), or a personal API token as `Authorization: Bearer aisc_…`; errors are JSON `{ message }`. " +
          "Each call says what a token needs (`x-token-access`: a scope, `public`, `own-token` or `session`); managing tokens, billing and the account need a browser session.",
      },
      tags: [
        { name: "search", description: "Run, stream, cancel and read searches" },
        { name: "auth", description: "Accounts and sessions (an httpOnly `session` cookie)" },
        { name: "quota", description: "The free tier's daily searches" },
        { name: "billing", description: "Pro subscriptions" },
        { name: "variants", description: "Query variants and the batches that run them (Pro)" },
        { name: "compare", description: "A query against its variants (Pro)" },
        { name: "lens", description: "The brand lens (Pro)" },
        { name: "tokens", description: "Personal API tokens for the CLI and MCP clients" },
        { name: "system", description: "Health and provider status" },
      ],
    },
  });
}

/** A JSON request body documented from its valibot schema, so docs and validation never drift. */
export function jsonBody(schema: GenericSchema) {
  return { required: true, content: { "application/json": { schema: jsonSchemaOf(schema) } } };
}

/** JSON Schema of a valibot schema (transforms and checks JSON Schema cannot say are left out). */
export function jsonSchemaOf(schema: GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema, { errorMode: "ignore" }) as Record<string, unknown>;
}
