import { Elysia } from "elysia";
import { CreatedToken, CreateToken, MAX_LIVE_TOKENS, RevokedToken, TokenList } from "#src/contract/tokens.ts";
import { parseInput } from "#src/server/http/errors.ts";
import type { identity } from "#src/server/http/identity.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { Owner } from "#src/server/services/owner.ts";
import type { Tokens } from "#src/server/services/tokens/index.ts";
import { jsonBody } from "./docs.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** Personal API tokens for the CLI and MCP clients. */
export function tokenRoutes(tokens: Tokens, who: ReturnType<typeof identity>) {
  const signedIn = (owner: Owner): string => {
    if (!owner.userId) throw new DomainError("NOT_SIGNED_IN", "Not signed in");
    return owner.userId;
  };
  return new Elysia()
    .use(who)
    .post(
      "/api/tokens",
      ({ owner, body, set }) => {
        set.status = 201;
        return tokens.create(signedIn(owner), parseInput(CreateToken, body).name);
      },
      {
        response: { 201: CreatedToken },
        detail: forTokens("session", {
          tags: ["tokens"],
          summary: "Create a personal API token",
          description:
            "Signed in only. The token (`aisc_…`) is in this answer only; it is kept as a hash. Send it as `Authorization: Bearer <token>`: it stands for the user, with their tier and quota, " +
            `on the calls its \`scopes\` allow (by default everything the CLI and MCP clients do; never managing tokens, billing or the account). 409 when the user has ${MAX_LIVE_TOKENS} live tokens already.`,
          requestBody: jsonBody(CreateToken),
        }),
      },
    )
    .get("/api/tokens", async ({ owner }) => ({ tokens: await tokens.list(signedIn(owner)) }), {
      response: TokenList,
      detail: forTokens("account:read", { tags: ["tokens"], summary: "The caller's tokens", description: "Name, first characters, scopes, created and last-used times; never the tokens." }),
    })
    .delete(
      "/api/tokens/:id",
      async ({ owner, params }) => {
        await tokens.revoke(signedIn(owner), params.id);
        return { success: true as const };
      },
      { response: RevokedToken, detail: forTokens("own-token", { tags: ["tokens"], summary: "Revoke a token", description: "The caller's own token only (others 404). Requests with it answer 401 from then on." }) },
    );
}
