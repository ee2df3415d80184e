import { Elysia } from "elysia";
import * as v from "valibot";
import {
  MAX_REPORT_RECIPIENTS,
  REPORT_UNSUBSCRIBE_PATH,
  ReportConfirmation,
  ReportSettings,
  ReportTestResult,
  ReportUnsubscribed,
  UpdateReport,
} from "#src/contract/reports.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { forTokens } from "#src/server/http/token-access.ts";
import type { Reports } from "#src/server/services/reports/index.ts";

const TrackerId = v.object({ id: v.string() });
const Token = v.object({ token: v.string() });
const PRO =
  "Pro, or a member of the tracker's workspace when it has Pro through an owner (else 403 `PRO_REQUIRED`); a tracker of a workspace the caller is not a member of is 404. Setting it, a new link and a test need the editor role or above (403 `ROLE_REQUIRED`).";
const LINK = "No session needed: the token in the path is the link (signed with the server's secret).";

/**
 * A tracker's report by e-mail (ADR 066): its settings and "Send a test now" for the owner, and the
 * links its recipients follow (confirm once; unsubscribe, also as RFC 8058's one-click POST).
 * Their pages are /email/report/confirm/{token} and /email/report/unsubscribe/{token}.
 */
export function reportRoutes(reports: Reports, guards: Guards) {
  return new Elysia()
    .use(guards)
    .get("/api/trackers/:id/report", ({ userId, params }) => reports.get(userId, params.id), {
      proInWorkspace: true,
      params: TrackerId,
      response: ReportSettings,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "A tracker's report by e-mail",
        description: `${PRO} \`cadence\` (weekly: Mondays 08:00; monthly: the 1st, 08:00; in the tracker's time zone), \`recipients\` with their \`status\` (pending, confirmed, unsubscribed), the share link recipients' reports link to, and \`nextAt\`. \`emailConfigured\` is false without SMTP_URL.`,
      }),
    })
    .put("/api/trackers/:id/report", ({ userId, params, body }) => reports.update(userId, params.id, body), {
      proInWorkspace: true,
      params: TrackerId,
      body: UpdateReport,
      parse: "json",
      response: ReportSettings,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Set a tracker's report by e-mail",
        description:
          `${PRO} The whole setting: \`cadence\` and at most ${MAX_REPORT_RECIPIENTS} \`recipients\` (e-mail addresses). Recipients left out are removed; each new one is sent a confirmation link, and nothing else until they follow it. ` +
          "A pending recipient listed again is sent the link again at most once a day. Confirmation links and reports count in the owner's MAIL_DAILY_CAP. 400 while e-mail is not configured (unless turning it off).",
      }),
    })
    .post("/api/trackers/:id/report/link", ({ userId, params }) => reports.newLink(userId, params.id), {
      proInWorkspace: true,
      params: TrackerId,
      response: ReportSettings,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Make a new share link for a tracker's report",
        description: `${PRO} A new read-only share link, which recipients' reports link to from then on: how to get one back after revoking it (a revoked link is not made again on its own). 409 while the report's link is live, or when the account has the most live share links.`,
      }),
    })
    .post("/api/trackers/:id/report/test", ({ userId, params }) => reports.test(userId, params.id), {
      proInWorkspace: true,
      params: TrackerId,
      response: ReportTestResult,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Send a test report now",
        description: `${PRO} The report as it stands now, to the owner's own confirmed address only (never to recipients). \`outcome\`: \`sent\`, \`unconfirmed\` (the owner's address is not proved) or \`capped\` (today's e-mails are used up), with \`message\` in words. A few an hour (429 past that); 400 while e-mail is not configured.`,
      }),
    })
    .get("/api/email/report/confirm/:token", ({ params }) => reports.confirmation(params.token), {
      params: Token,
      response: ReportConfirmation,
      detail: forTokens("public", {
        tags: ["trackers"],
        summary: "What a report's confirmation link is for",
        description: `${LINK} The address, the tracker's name and \`state\`: \`ready\`, \`confirmed\` or \`unsubscribed\`; it changes nothing. A link not ours, or for a removed recipient, is 404.`,
      }),
    })
    .post("/api/email/report/confirm/:token", ({ params }) => reports.confirm(params.token), {
      params: Token,
      response: ReportConfirmation,
      detail: forTokens("public", {
        tags: ["trackers"],
        summary: "Confirm a report's recipient",
        description: `${LINK} The recipient is confirmed: the tracker's reports are sent to them from the next one on. Once confirmed, again is the same; an unsubscribed recipient stays unsubscribed.`,
      }),
    })
    .post("/api/email/report/unsubscribe/:token", ({ params }) => reports.unsubscribe(params.token), {
      params: Token,
      // RFC 8058's POST carries `List-Unsubscribe=One-Click` as a form: whatever the body, the link is the request.
      parse: "none",
      response: ReportUnsubscribed,
      detail: forTokens("public", {
        tags: ["trackers"],
        summary: "Unsubscribe from a tracker's report (one click)",
        description: `${LINK} The List-Unsubscribe address of every report: no more of it goes to the address. A link not ours, or for a removed recipient, is 404. A GET is sent to the page that does the same and says so.`,
      }),
    })
    .get(
      "/api/email/report/unsubscribe/:token",
      ({ params, set }) => {
        set.status = 303;
        set.headers.location = `${REPORT_UNSUBSCRIBE_PATH}/${encodeURIComponent(params.token)}`;
        return "";
      },
      {
        params: Token,
        detail: forTokens("public", {
          tags: ["trackers"],
          summary: "A report's unsubscribe page",
          description: `303 to ${REPORT_UNSUBSCRIBE_PATH}/{token}.`,
          responses: { 303: { description: `To ${REPORT_UNSUBSCRIBE_PATH}/{token}, the page that unsubscribes and says so` } },
        }),
      },
    );
}
