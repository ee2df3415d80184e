import { Elysia } from "elysia";
import * as v from "valibot";
import { ChangesQuery, TrackerChanges } from "#src/contract/changes.ts";
import {
  CreatedShare,
  CreateShare,
  LINK_OUTLIVES_TOKEN,
  MAX_LIVE_SHARES,
  MAX_SHARE_DAYS,
  RevokedShare,
  SHARE_READ_SCOPE,
  SharedTrackerRun,
  SharedTrackerRunList,
  SharedView,
  ShareList,
} from "#src/contract/shares.ts";
import { TrackerRunsQuery } from "#src/contract/trackers.ts";
import { SourcesQuery, SourcesReport, TrackerAlertList, Trend, TrendQuery } from "#src/contract/trend.ts";
import { SummaryQuery, TrackerSummary } from "#src/contract/summary.ts";
import { SUMMARY } from "./trackers.ts";
import { requestOrigin } from "#src/server/http/forwarded.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { lastValues } from "#src/server/http/query-string.ts";
import { forTokens, requireScope } from "#src/server/http/token-access.ts";
import type { Shares } from "#src/server/services/shares/index.ts";
import { WorkspaceFilter } from "#src/contract/workspaces.ts";

const ShareId = v.object({ id: v.string() });
const Token = v.object({ token: v.string() });
const RunOfLink = v.object({ token: v.string(), runId: v.string() });

const PUBLIC =
  "No session needed: the token in the path is the link. A revoked, expired or unknown link is 404 `NOT_FOUND` (one message for all three); " +
  "each link answers at most SHARE_READS_PER_MINUTE reads a minute, and each client's network at most SHARE_READS_PER_CLIENT_PER_MINUTE reads of links, " +
  "unknown ones included (counted for every instance), then 429 `RATE_LIMITED` with Retry-After.";
/** What a link to each kind shows, in words, for the refusal of a token without the scope that reads it. */
const SHOWS = { search: "a saved search's share link", compare: "a comparison's share link", tracker: "a tracker's share link" } as const;
const TRACKER_READ =
  "As the owner's /api/trackers/{id}/… answers, with the owner's saved searches left out (`searchId` null, `searchIds` empty) and no `reason` on a skipped run; a frozen link's as of its `frozenAt`.";

/**
 * Share links (ADR 048): the owner makes, lists and revokes them (signed in, or a token
 * with the `shares` scope); anyone holding one reads what it shows under /api/shared/{token}.
 */
export function shareRoutes(shares: Shares, guards: Guards, { trustProxy }: { trustProxy: number }) {
  return (
    new Elysia()
      // A link's answers and its page carry noindex, no-store and no-referrer (http/security-headers.ts).
      .use(guards)
      .post(
        "/api/shares",
        async ({ actor, body, set, request, token }) => {
          // A link shows what it links to to anyone: a token makes one only if it may read that itself.
          requireScope(token, SHARE_READ_SCOPE[body.kind], `making ${SHOWS[body.kind]}`, "the link shows anyone what that scope reads");
          const created = await shares.create(actor, body, requestOrigin(request, trustProxy));
          set.status = 201;
          return token ? { ...created, note: LINK_OUTLIVES_TOKEN } : created;
        },
        {
          signedIn: true,
          body: CreateShare,
          parse: "json",
          response: { 201: CreatedShare },
          detail: forTokens("shares", {
            tags: ["shares"],
            summary: "Make a read-only link",
            description:
              "`kind` `search` (a saved search of the caller's), `compare` (`id`: the original query's saved search; compared with `variants`, else the query's saved variants, " +
              "each pinned as its latest saved search now) or `tracker` (`frozen`: a snapshot as of its newest finished run, else the living report). Comparisons and trackers are Pro (403 `PRO_REQUIRED`). " +
              `Another user's id is 404. \`expiresInDays\` 1–${MAX_SHARE_DAYS}; without it the link lives until revoked. 409 at ${MAX_LIVE_SHARES} live links. ` +
              "The `url` holds the link's token (256 bits) and points at the origin the call reached. " +
              `An API token needs, besides \`shares\`, the scope that reads what the link shows: \`${SHARE_READ_SCOPE.search}\` for a search, ` +
              `\`${SHARE_READ_SCOPE.compare}\` for a comparison, \`${SHARE_READ_SCOPE.tracker}\` for a tracker (403 \`SESSION_REQUIRED\` otherwise). ` +
              "A link made with a token is the account's: it keeps working after the token is revoked, and the answer says so in `note`. " +
              "`workspaceId` (ADR 071): a tracker's link belongs to the tracker's workspace, where making it needs the editor role or above (403 `ROLE_REQUIRED` for a viewer); a search's or a comparison's to the given workspace (as an editor there) or the caller's personal one.",
          }),
        },
      )
      .get("/api/shares", ({ userId, request, query }) => shares.list(userId, requestOrigin(request, trustProxy), query), {
        signedIn: true,
        transform: lastValues,
        query: WorkspaceFilter,
        response: ShareList,
        detail: forTokens("shares", {
          tags: ["shares"],
          summary: "The caller's links",
          description:
            "Newest first, expired ones too (`expired`), each with its `url`, `workspaceId` and `lastOpenedAt` (to the minute; null until opened): the caller's own links, or with `workspaceId` every link of that workspace (404 when not a member).",
        }),
      })
      .delete(
        "/api/shares/:id",
        async ({ actor, params }) => {
          await shares.revoke(actor, params.id);
          return { success: true as const };
        },
        {
          signedIn: true,
          params: ShareId,
          response: RevokedShare,
          detail: forTokens("shares", {
            tags: ["shares"],
            summary: "Revoke a link",
            description:
              "The caller's own link, or one of a workspace where the caller is an editor or above (a viewer gets 403 `ROLE_REQUIRED`; others 404). It answers 404 from then on.",
          }),
        },
      )
      .get("/api/shared/:token", ({ params, caller }) => shares.open(params.token, caller.ip), {
        params: Token,
        response: SharedView,
        detail: forTokens("public", {
          tags: ["shares"],
          summary: "What a link shows",
          description: `${PUBLIC} A search in the spec's JSON (as GET /api/search/{id}), a comparison's report, or a tracker's definition (without its webhook, budget, cost estimate or pause reason). No identity of the owner.`,
        }),
      })
      .get("/api/shared/:token/runs", ({ params, query, caller }) => shares.runs(params.token, query, caller.ip), {
        params: Token,
        transform: lastValues,
        query: TrackerRunsQuery,
        response: SharedTrackerRunList,
        detail: forTokens("public", { tags: ["shares"], summary: "A shared tracker's runs", description: `${PUBLIC} ${TRACKER_READ}` }),
      })
      .get("/api/shared/:token/runs/:runId", ({ params, caller }) => shares.run(params.token, params.runId, caller.ip), {
        params: RunOfLink,
        response: SharedTrackerRun,
        detail: forTokens("public", { tags: ["shares"], summary: "One run of a shared tracker", description: `${PUBLIC} ${TRACKER_READ}` }),
      })
      .get("/api/shared/:token/trend", ({ params, query, caller }) => shares.trend(params.token, query, caller.ip), {
        params: Token,
        transform: lastValues,
        query: TrendQuery,
        response: Trend,
        detail: forTokens("public", { tags: ["shares"], summary: "A shared tracker's trend", description: `${PUBLIC} ${TRACKER_READ}` }),
      })
      .get("/api/shared/:token/summary", ({ params, query, caller }) => shares.summary(params.token, query, caller.ip), {
        params: Token,
        transform: lastValues,
        query: SummaryQuery,
        response: TrackerSummary,
        detail: forTokens("public", { tags: ["shares"], summary: "A shared tracker's headline", description: `${PUBLIC} ${TRACKER_READ} ${SUMMARY}` }),
      })
      .get("/api/shared/:token/sources", ({ params, query, caller }) => shares.sources(params.token, query, caller.ip), {
        params: Token,
        transform: lastValues,
        query: SourcesQuery,
        response: SourcesReport,
        detail: forTokens("public", { tags: ["shares"], summary: "A shared tracker's sources and citation gap", description: `${PUBLIC} ${TRACKER_READ}` }),
      })
      .get("/api/shared/:token/alerts", ({ params, caller }) => shares.alerts(params.token, caller.ip), {
        params: Token,
        response: TrackerAlertList,
        detail: forTokens("public", { tags: ["shares"], summary: "A shared tracker's alerts", description: `${PUBLIC} ${TRACKER_READ}` }),
      })
      .get("/api/shared/:token/changes", ({ params, query, caller }) => shares.changes(params.token, query, caller.ip), {
        params: Token,
        transform: lastValues,
        query: ChangesQuery,
        response: TrackerChanges,
        detail: forTokens("public", { tags: ["shares"], summary: "What changed in a shared tracker", description: `${PUBLIC} ${TRACKER_READ}` }),
      })
  );
}
