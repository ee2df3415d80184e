import { openapi } from "@elysiajs/openapi";
import { toJsonSchema } from "@valibot/to-json-schema";
import { Elysia } from "elysia";
import type { GenericSchema } from "valibot";
import { ERROR_CODES, ErrorBody } from "#src/contract/errors.ts";
import { API_DOCS_POLICY } from "#src/server/http/security-headers.ts";
import { DOCS_UI_FILES } from "./docs-ui-files.ts";

const TITLE = "AI Search Comparison API";
const SPEC_PATH = "/api/docs/json";
const INIT_PATH = "/api/docs/init.js";

/**
 * The API reference at /api/docs (spec at /api/docs/json), generated from the routes: each
 * declares its body, query and params (`body:` with `parse: "json"`, `query:`, `params:`, which
 * Elysia validates on the way in) and its response schema (`response:`, checked on the way out).
 * The page is ours: Swagger UI from our own /assets/ and an init script from here, under a CSP
 * that lets in those two and nothing inline (the plugin's page loads a CDN script `@latest`).
 */
export function apiDocs() {
  return new Elysia({ name: "api-docs" })
    .onAfterHandle(({ path, response }) => {
      if (path === SPEC_PATH) withErrorResponses(response as Document);
    })
    .use(spec())
    .get("/api/docs", docsPage, { detail: { hide: true } })
    .get(INIT_PATH, initScript, { detail: { hide: true } });
}

function docsPage({ set }: { set: { headers: Record<string, string | number> } }) {
  set.headers["content-security-policy"] = API_DOCS_POLICY;
  set.headers["content-type"] = "text/html; charset=utf-8";
  set.headers["cache-control"] = "no-cache";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/${DOCS_UI_FILES.style.name}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/assets/${DOCS_UI_FILES.script.name}"></script>
<script src="${INIT_PATH}"></script>
</body>
</html>
`;
}

/** Swagger UI on our document; no validator badge (it is an image from validator.swagger.io). */
function initScript({ set }: { set: { headers: Record<string, string | number> } }) {
  set.headers["content-type"] = "text/javascript; charset=utf-8";
  set.headers["cache-control"] = "no-cache";
  return `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(SPEC_PATH)}, dom_id: "#swagger-ui", deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout" });
`;
}

/** The OpenAPI document only: the plugin's own page is replaced by docsPage. */
function spec() {
  return openapi({
    path: "/api/docs",
    provider: null,
    mapJsonSchema: { valibot: jsonSchemaOf },
    specPath: SPEC_PATH,
    // Files (a path with an extension) are left out, but not an API call that answers one (a workspace's audit.csv).
    exclude: { paths: ["/*", "/assets/*", "/api/*", /^(?!\/api\/).*\.[^/]*$/], staticFile: false },
    documentation: {
      components: { schemas: { Error: jsonSchemaOf(ErrorBody) } },
      info: {
        title: TITLE,
        version: "1",
        description:
          "One query to OpenAI, Anthropic and Gemini with web search on: products, companies and cited sources per model, overlaps, and frequencies over iterations. " +
          "All calls send cookies (credentials: include), or a personal API token as `Authorization: Bearer aisc_…`; errors are JSON `{ code, message }` (see the `Error` schema; decide on `code`, show `message`). " +
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
        { name: "shares", description: "Read-only share links: made by their owner, read by anyone holding one" },
        {
          name: "workspaces",
          description:
            "Workspaces, their members (roles viewer < editor < admin < owner), invitations and audit log. A workspace's trackers and links are its members'; anyone else gets 404, a member below the role a call needs 403 `ROLE_REQUIRED`",
        },
        { name: "system", description: "Health and provider status" },
      ],
    },
  });
}

type Document = { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/**
 * Every call's errors, documented once: any status it does not list answers the `Error` schema,
 * `{ code, message }` with a code of ERROR_CODES. (The generator writes only each route's
 * `response:`; the document is cached, so this runs on it once.)
 */
function withErrorResponses(document: Document): void {
  const error = {
    description: `An error: \`code\` is one of ${ERROR_CODES.join(", ")}`,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      operation.responses ??= {};
      operation.responses.default ??= error;
    }
  }
}

/** JSON Schema of a valibot schema (transforms and checks JSON Schema cannot say are left out). */
export function jsonSchemaOf(schema: GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema, { errorMode: "ignore" }) as Record<string, unknown>;
}
