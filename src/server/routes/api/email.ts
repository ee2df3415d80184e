import { Elysia } from "elysia";
import * as v from "valibot";
import { EMAIL_UNSUBSCRIBE_PATH, EmailConfirmation, Unsubscribed, UpdatedNotifications } from "#src/contract/notifications.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { forTokens } from "#src/server/http/token-access.ts";
import type { Notifications } from "#src/server/services/notifications/index.ts";

const Token = v.object({ token: v.string() });

const LINK = "No session needed: the token in the path is the link (signed with the server's secret).";

/**
 * E-mail links (ADR 053): the confirmation link that proves an account's address, and the
 * unsubscribe link every e-mail carries, in its text and as RFC 8058's one-click List-Unsubscribe.
 * Their pages are /email/confirm/{token} and /email/unsubscribe/{token}.
 */
export function emailRoutes(notifications: Notifications, guards: Guards) {
  return new Elysia()
    .use(guards)
    .post("/api/user/notifications/confirmation", ({ userId }) => notifications.resendConfirmation(userId), {
      signedIn: true,
      response: UpdatedNotifications,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Send the confirmation link again",
        description:
          "To the account's address, which no e-mail but this link reaches until it is followed. One every 5 minutes, counted in the day's MAIL_DAILY_CAP: " +
          "else 429 `RATE_LIMITED` with Retry-After. 409 when the address is confirmed already; 400 while e-mail is not configured.",
      }),
    })
    .get("/api/email/confirm/:token", ({ params }) => notifications.confirmation(params.token), {
      params: Token,
      response: EmailConfirmation,
      detail: forTokens("public", {
        tags: ["trackers"],
        summary: "What a confirmation link is for",
        description: `${LINK} The address and \`state\`: \`ready\`, \`confirmed\` or \`expired\` (an hour after it was sent); it changes nothing. A link for another address than the account's now, or not ours, is 404.`,
      }),
    })
    .post("/api/email/confirm/:token", ({ params }) => notifications.confirm(params.token), {
      params: Token,
      response: EmailConfirmation,
      detail: forTokens("public", {
        tags: ["trackers"],
        summary: "Confirm an address",
        description: `${LINK} The account's address is proved: the e-mails it turned on are sent from now on. An expired link is 400; one for another address, or not ours, 404.`,
      }),
    })
    .post("/api/email/unsubscribe/:token", ({ params }) => notifications.unsubscribe(params.token), {
      params: Token,
      // RFC 8058's POST carries `List-Unsubscribe=One-Click` as a form: whatever the body, the link is the request.
      parse: "none",
      response: Unsubscribed,
      detail: forTokens("public", {
        tags: ["trackers"],
        summary: "Unsubscribe (one click)",
        description: `${LINK} The List-Unsubscribe address of every e-mail (RFC 8058: a POST, any body): turns that kind of e-mail off (\`off\`: \`digest\`, \`alerts\`, or \`all\` from a confirmation mail). A link not ours is 404. A GET is sent to the page that does the same and says so.`,
      }),
    })
    .get(
      "/api/email/unsubscribe/:token",
      ({ params, set }) => {
        // A mail client that opens the List-Unsubscribe address in a browser gets the page.
        set.status = 303;
        set.headers.location = `${EMAIL_UNSUBSCRIBE_PATH}/${encodeURIComponent(params.token)}`;
        return "";
      },
      {
        params: Token,
        detail: forTokens("public", {
          tags: ["trackers"],
          summary: "The unsubscribe page",
          description: `303 to ${EMAIL_UNSUBSCRIBE_PATH}/{token}.`,
          responses: { 303: { description: `To ${EMAIL_UNSUBSCRIBE_PATH}/{token}, the page that unsubscribes and says so` } },
        }),
      },
    );
}
