import * as v from "valibot";

/** Personal API tokens: `aisc_` and 43 random characters; the CLI and MCP clients send one as `Authorization: Bearer`. */
export const TOKEN_PREFIX = "aisc_";

/** POST /api/tokens. */
export const CreateToken = v.object(
  { name: v.pipe(v.string("A token name is required"), v.trim(), v.minLength(1, "A token name is required"), v.maxLength(60, "A token name must be at most 60 characters")) },
  "The body must be a JSON object with a name",
);

/** A token as listed: never the token itself, only its first characters. */
export const ApiToken = v.object({
  id: v.string(),
  name: v.string(),
  prefix: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
});
export type ApiToken = v.InferOutput<typeof ApiToken>;

/** The answer to POST /api/tokens: the token, shown this once. */
export const CreatedToken = v.object({ ...ApiToken.entries, token: v.string() });
export type CreatedToken = v.InferOutput<typeof CreatedToken>;

export const TokenList = v.object({ tokens: v.array(ApiToken) });
export const RevokedToken = v.object({ success: v.literal(true) });
