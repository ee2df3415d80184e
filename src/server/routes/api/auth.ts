import { Elysia, type Context } from "elysia";
import { Login, LogoutResult, Register, User } from "#src/contract/auth.ts";
import { isHttps } from "#src/server/http/forwarded.ts";
import { NOT_SIGNED_IN, type Guards } from "#src/server/http/guards.ts";
import { SESSION_COOKIE, type Sessions } from "#src/server/http/session-cookie.ts";
import { INVALID_LOGIN, toUser, type Accounts } from "#src/server/services/auth/accounts.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { Caller } from "#src/server/services/owner.ts";
import { forTokens } from "#src/server/http/token-access.ts";

export type AuthRouteDeps = {
  accounts: Accounts;
  sessions: Sessions;
  trustProxy: number;
};

type SignInContext = Pick<Context, "request" | "cookie"> & { caller: Caller };

/** Spec §7 account calls: register, log in and out, who am I. */
export function authRoutes({ accounts, sessions, trustProxy }: AuthRouteDeps, guards: Guards) {
  /** Sets the session cookie; what the browser did anonymously becomes the account's. */
  async function signIn({ request, cookie, caller }: SignInContext, user: { id: string; tokenVersion: number }): Promise<void> {
    await sessions.issue(cookie[SESSION_COOKIE]!, user, isHttps(request, trustProxy));
    await accounts.signedIn(caller.owner.anonymousId, user.id);
  }

  async function signOut({ cookie, caller }: SignInContext): Promise<void> {
    if (caller.owner.userId) await sessions.revoke(caller.owner.userId);
    sessions.clear(cookie[SESSION_COOKIE]!);
  }

  return new Elysia()
    .use(guards)
    .post(
      "/api/register",
      async (context) => {
        const user = await accounts.register(context.body, context.caller.ip);
        await signIn(context, user);
        context.set.status = 201;
        return toUser(user);
      },
      {
        body: Register,
        parse: "json",
        response: { 201: User },
        detail: forTokens("session", {
          tags: ["auth"],
          summary: "Create an account and sign in",
          description:
            "Username 3–50 characters, unique in any letter case; a valid email (not proved, so several accounts may give the same one); password at least 8 characters. " +
            "201 with the user and the `session` cookie; 400 `{ message }` naming the first invalid field (spec §5 texts); 409 when the username is taken; 429 (with Retry-After) " +
            "when the caller's network has made its new accounts for the day (FREE_NETWORK_DAILY_REGISTRATIONS, default 3) or has tried to register 10 times in 10 minutes, " +
            "whatever the outcome (FREE_NETWORK_REGISTRATION_ATTEMPTS). Searches made anonymously in this browser join the account.",
        }),
      },
    )
    .post(
      "/api/login",
      async (context) => {
        const user = await accounts.authenticate(context.body.username, context.body.password, context.caller.ip);
        await signIn(context, user);
        return toUser(user);
      },
      {
        body: Login,
        parse: "json",
        response: User,
        detail: forTokens("session", {
          tags: ["auth"],
          summary: "Sign in",
          description:
            `200 with the user and the \`session\` cookie (30 days, renewed with use); 401 \`${INVALID_LOGIN}\` for an unknown username or a wrong password alike; ` +
            "429 (with Retry-After) after 5 wrong passwords for one username from one network (then each wait doubles, up to 15 minutes; the right password clears it; " +
            "other networks are not affected), or 30 attempts in a minute from one network. Searches made anonymously in this browser join the account.",
        }),
      },
    )
    .post(
      "/api/logout",
      async (context) => {
        await signOut(context);
        // A plain HTML form (the profile page without JavaScript) goes home; fetch callers read the JSON.
        if (isFormPost(context.request)) {
          context.set.status = 303;
          context.set.headers.location = "/";
        }
        return { success: true as const };
      },
      {
        response: LogoutResult,
        detail: forTokens("session", {
          tags: ["auth"],
          summary: "Sign out everywhere",
          description:
            "Ends every session of the user (a copied cookie stops working too) and clears the cookie. `{ success: true }`, also when not signed in; " +
            "a plain HTML form post (`application/x-www-form-urlencoded`) gets a 303 to `/` instead. POST only: a link on another site cannot sign anyone out.",
          responses: { 303: { description: "To `/`, for an HTML form" } },
        }),
      },
    )
    .get("/api/login", ({ redirect }) => redirect("/auth", 302), {
      detail: forTokens("public", {
        tags: ["auth"],
        summary: "The sign-in page",
        description: "Redirects to `/auth` (link target of the profile page's log-in link).",
        responses: { 302: { description: "To `/auth`" } },
      }),
    })
    .get(
      "/api/auth/user",
      async ({ userId }) => {
        // A session whose account no longer exists reads as signed out.
        const user = await accounts.find(userId);
        if (!user) throw new DomainError("NOT_SIGNED_IN", NOT_SIGNED_IN);
        return toUser(user);
      },
      {
        signedIn: true,
        response: User,
        detail: forTokens("account:read", {
          tags: ["auth"],
          summary: "The signed-in user",
          description: `\`{ username, firstName, lastName, email, profileImageUrl }\`; 401 \`${NOT_SIGNED_IN}\` otherwise (spec §7: a 401 means signed out).`,
        }),
      },
    );
}

/** A browser's own form submission (no JavaScript), as opposed to a fetch with a JSON body. */
function isFormPost(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
}
