import { Elysia } from "elysia";
import { CreatedToken, CreateToken, MAX_LIVE_TOKENS, RevokedToken, TokenList } from "#src/contract/tokens.ts";
import type { Guards } from "#src/server/http/guards.ts";
import type { Tokens } from "#src/server/services/tokens/index.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** Personal API tokens for the CLI and MCP clients. */
export function tokenRoutes(tokens: Tokens, guards: Guards) {
  return new Elysia()
    .use(guards)
    .post(
      "/api/tokens",
      ({ userId, body, set }) => {
        set.status = 201;
        return tokens.create(userId, body.name);
      },
      {
        signedIn: true,
        body: CreateToken,
        parse: "json",
        response: { 201: CreatedToken },
        detail: forTokens("session", {
          tags: ["tokens"],
          summary: "Create a personal API token",
          description:
            "Signed in only. The token (`aisc_…`) is in this answer only; it is kept as a hash. Send it as `Authorization: Bearer <token>`: it stands for the user, with their tier and quota, " +
            `on the calls its \`scopes\` allow (by default everything the CLI and MCP clients do; never managing tokens, billing or the account). 409 when the user has ${MAX_LIVE_TOKENS} live tokens already.`,
        }),
      },
    )
    .get("/api/tokens", async ({ userId }) => ({ tokens: await tokens.list(userId) }), {
      signedIn: true,
      response: TokenList,
      detail: forTokens("account:read", {
        tags: ["tokens"],
        summary: "The caller's tokens",
        description: "Name, first characters, scopes, created and last-used times; never the tokens.",
      }),
    })
    .delete(
      "/api/tokens/:id",
      async ({ userId, params }) => {
        await tokens.revoke(userId, params.id);
        return { success: true as const };
      },
      {
        signedIn: true,
        response: RevokedToken,
        detail: forTokens("own-token", {
          tags: ["tokens"],
          summary: "Revoke a token",
          description: "The caller's own token only (others 404). Requests with it answer 401 from then on.",
        }),
      },
    );
}
