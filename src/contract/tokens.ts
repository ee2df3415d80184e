import * as v from "valibot";
import { visibleOnly } from "./visible-input.ts";

/** Personal API tokens: `aisc_` and 43 random characters; the CLI and MCP clients send one as `Authorization: Bearer`. */
export const TOKEN_PREFIX = "aisc_";

/**
 * What a token may do (ADR 025). Each /api route names the scope a token needs; a route that
 * names none needs a browser session, which can do everything. Managing tokens, billing and
 * changing the account have no scope: no token can ever do them.
 */
export const TOKEN_SCOPES = {
  search: "run, stream and cancel searches",
  history: "read, rename and delete saved searches (the history)",
  variants: "write, read and edit query variants; save, read and run their batches (Pro)",
  compare: "compare a query with its variants (Pro)",
  lens: "read and set the brand lens; the lens on a saved search (Pro)",
  "account:read": "read who you are, your plan and quota, and your tokens' names",
  trackers: "brand trackers: create, run and read them",
  shares: "make, list and revoke read-only share links",
  workspaces: "list and make workspaces; manage their members and invitations, read their audit log (as your role there allows)",
} as const;
export const TokenScope = v.picklist(Object.keys(TOKEN_SCOPES) as Array<keyof typeof TOKEN_SCOPES>);
export type TokenScope = v.InferOutput<typeof TokenScope>;

/** What every token gets, and what a token made before scopes existed has: all the CLI and MCP clients need. */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = TokenScope.options;

/** Live (not revoked) tokens a user may have at once. */
export const MAX_LIVE_TOKENS = 20;

/** POST /api/tokens. */
export const CreateToken = v.object(
  {
    name: v.pipe(
      v.string("A token name is required"),
      v.trim(),
      v.minLength(1, "A token name is required"),
      v.maxLength(60, "A token name must be at most 60 characters"),
      visibleOnly("A token name"),
    ),
  },
  "The body must be a JSON object with a name",
);

/** A token as listed: never the token itself, only its first characters. */
export const ApiToken = v.object({
  id: v.string(),
  name: v.string(),
  prefix: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
  scopes: v.array(TokenScope),
});
export type ApiToken = v.InferOutput<typeof ApiToken>;

/** The answer to POST /api/tokens: the token, shown this once. */
export const CreatedToken = v.object({ ...ApiToken.entries, token: v.string() });
export type CreatedToken = v.InferOutput<typeof CreatedToken>;

export const TokenList = v.object({ tokens: v.array(ApiToken) });
export const RevokedToken = v.object({ success: v.literal(true) });
