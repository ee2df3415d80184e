import { Elysia, type Context } from "elysia";
import { Login, ProStatus, Register, User } from "#src/contract/auth.ts";
import { clientIp, isHttps } from "#src/server/forwarded.ts";
import { HttpError, parseInput } from "#src/server/http-error.ts";
import { jsonBody, jsonResponse } from "#src/server/routes/api/docs.ts";
import { INVALID_LOGIN, toUser, type Accounts } from "#src/server/services/auth/accounts.ts";
import type { identity, Owner } from "#src/server/services/auth/identity.ts";
import { SESSION_COOKIE, type Sessions } from "#src/server/services/auth/sessions.ts";
import type { Throttle } from "#src/server/services/auth/throttle.ts";
import type { QuotaService } from "#src/server/services/quota/index.ts";
import { networkOf } from "#src/server/services/quota/subjects.ts";

export const NOT_SIGNED_IN = "Not signed in";
export const TOO_MANY_LOGINS = "Too many login attempts. Please wait a minute and try again.";

export type AuthRouteDeps = {
  accounts: Accounts;
  sessions: Sessions;
  quota: QuotaService;
  /** Login attempts per username and per client network. */
  loginThrottle: Throttle;
  trustProxy: number;
};

type SignInContext = Pick<Context, "request" | "cookie"> & { owner: Owner };

/** Spec §7 account calls: register, log in and out, who am I, am I Pro. */
export function authRoutes({ accounts, sessions, quota, loginThrottle, trustProxy }: AuthRouteDeps, who: ReturnType<typeof identity>) {
  /** Sets the session cookie; what the browser did anonymously becomes the account's. */
  async function signIn({ request, cookie, owner }: SignInContext, user: { id: string; tokenVersion: number }): Promise<void> {
    await sessions.issue(cookie[SESSION_COOKIE]!, user, isHttps(request, trustProxy));
    await accounts.adopt(owner.anonymousId, user.id);
  }

  async function signOut({ cookie, owner }: SignInContext): Promise<void> {
    if (owner.userId) await sessions.revoke(owner.userId);
    sessions.clear(cookie[SESSION_COOKIE]!);
  }

  return new Elysia()
    .use(who)
    .post(
      "/api/register",
      async (context) => {
        const input = parseInput(Register, context.body);
        const user = await accounts.register(input);
        await signIn(context, user);
        context.set.status = 201;
        return toUser(user);
      },
      {
        detail: {
          tags: ["auth"],
          summary: "Create an account and sign in",
          description:
            "Username 3–50 characters, unique in any letter case; a valid email, unique; password at least 8 characters. 201 with the user and the `session` cookie; " +
            "400 `{ message }` naming the first invalid field (spec §5 texts); 409 when the username or email is taken. Searches made anonymously in this browser join the account.",
          requestBody: jsonBody(Register),
          responses: { 201: { ...jsonResponse(User)[200], description: "Created and signed in" } },
        },
      },
    )
    .post(
      "/api/login",
      async (context) => {
        const { body, request, server, set } = context;
        const input = parseInput(Login, body);
        const verdict = loginThrottle.attempt([`user:${input.username.toLowerCase()}`, `ip:${networkOf(clientIp({ request, server }, trustProxy))}`]);
        if (!verdict.allowed) {
          set.headers["retry-after"] = String(verdict.retryAfterS);
          throw new HttpError(429, TOO_MANY_LOGINS);
        }
        const user = await accounts.authenticate(input.username, input.password);
        // One answer for an unknown user and a wrong password: the form cannot be used to find accounts.
        if (!user) throw new HttpError(401, INVALID_LOGIN);
        await signIn(context, user);
        return toUser(user);
      },
      {
        detail: {
          tags: ["auth"],
          summary: "Sign in",
          description:
            `200 with the user and the \`session\` cookie (30 days, renewed with use); 401 \`${INVALID_LOGIN}\` for an unknown username or a wrong password alike; ` +
            "429 (with Retry-After) after 10 attempts in a minute for one username or from one network. Searches made anonymously in this browser join the account.",
          requestBody: jsonBody(Login),
          responses: jsonResponse(User, "Signed in"),
        },
      },
    )
    .post(
      "/api/logout",
      async (context) => {
        await signOut(context);
        return { success: true as const };
      },
      {
        detail: {
          tags: ["auth"],
          summary: "Sign out everywhere",
          description: "Ends every session of the user (a copied cookie stops working too) and clears the cookie. `{ success: true }`, also when not signed in.",
        },
      },
    )
    .get(
      "/api/logout",
      async (context) => {
        await signOut(context);
        return context.redirect("/", 302);
      },
      { detail: { tags: ["auth"], summary: "Sign out and go home", description: "Same as POST /api/logout, then a redirect to `/`, for plain links (spec §7)." } },
    )
    .get("/api/login", ({ redirect }) => redirect("/auth", 302), {
      detail: { tags: ["auth"], summary: "The sign-in page", description: "Redirects to `/auth` (link target of the profile page's log-in link)." },
    })
    .get(
      "/api/auth/user",
      async ({ owner }) => {
        const user = owner.userId ? await accounts.find(owner.userId) : undefined;
        if (!user) throw new HttpError(401, NOT_SIGNED_IN);
        return toUser(user);
      },
      {
        detail: {
          tags: ["auth"],
          summary: "The signed-in user",
          description: `\`{ username, firstName, lastName, email, profileImageUrl }\`; 401 \`${NOT_SIGNED_IN}\` otherwise (spec §7: a 401 means signed out).`,
          responses: jsonResponse(User, "Signed in"),
        },
      },
    )
    .get("/api/pro-status", async ({ owner }) => ({ isPro: await quota.isPro(owner.userId) }), {
      detail: {
        tags: ["auth"],
        summary: "Whether the caller is Pro",
        description: "`{ isPro }`: true while the user has an active or trialing subscription; false for anonymous callers.",
        responses: jsonResponse(ProStatus),
      },
    });
}
