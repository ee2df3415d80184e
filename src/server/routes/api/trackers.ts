import { Elysia } from "elysia";
import * as v from "valibot";
import {
  CreateTracker,
  DeleteTrackerQuery,
  Detectability,
  DetectabilityQuery,
  StartedRun,
  Tracker,
  TrackerList,
  TrackerRun,
  TrackerRunList,
  TrackerRunsQuery,
  UpdateTracker,
  WebhookTestResult,
} from "#src/contract/trackers.ts";
import { ChangesQuery, TrackerChanges } from "#src/contract/changes.ts";
import { SourcesQuery, SourcesReport, TrackerAlertList, Trend, TrendQuery } from "#src/contract/trend.ts";
import { MAX_SUMMARY_DAYS, SummaryQuery, TrackerSummary } from "#src/contract/summary.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { lastValues } from "#src/server/http/query-string.ts";
import { forTokens } from "#src/server/http/token-access.ts";
import type { Notifications } from "#src/server/services/notifications/index.ts";
import type { Trackers } from "#src/server/services/trackers/index.ts";
import type { Alerts } from "#src/server/services/trackers/alerts.ts";
import { AlertsInbox, INBOX_LIMIT, MarkAlertsRead, MarkedAlertsRead } from "#src/contract/alerts-inbox.ts";
import { NotificationSettings, UpdatedNotifications, UpdateNotifications } from "#src/contract/notifications.ts";
import { WorkspaceFilter } from "#src/contract/workspaces.ts";

const TrackerId = v.object({ id: v.string() });
const RunId = v.object({ id: v.string(), runId: v.string() });

const PRO =
  "Pro, or a member of the tracker's workspace when it has Pro through an owner (else 403 `PRO_REQUIRED`); a tracker of a workspace the caller is not a member of is 404.";
/** What a change, a run or a delete needs besides Pro (ADR 071). */
const EDITOR = "Needs the editor role or above in the tracker's workspace (a viewer gets 403 `ROLE_REQUIRED`).";

/** What GET …/summary answers, for the owner's route and a share link's alike. */
export const SUMMARY =
  "The brand's headline for a period: `period` (`run`: the newest run that answered, against the run before it; `7d` or `30d`: the days ending now; or `from` and `to`, " +
  "a day YYYY-MM-DD in UTC or an ISO timestamp, both ends included; without any, `7d`; without `from`, the 7 days before `to`; without `to`, up to now; " +
  `at most ${MAX_SUMMARY_DAYS} days, else 400) and the period of the same length just before it (\`period.previous\`). ` +
  "`brand` across providers and `providers[]` each (with its `provider`): `rate` (answers naming the brand, of `n` answers, in percent 0–100 as the trend's) with `low`–`high`, " +
  "its 95% interval widened by how much the tracker's runs vary (the trend's bands); `rank` of `of` among the tracked brands (the brand and its competitors) by answers naming each; " +
  "`sov` (its mentions, of every tracked brand's, in percent); and `change`: `from` and `to` (the rates compared: over the questions both periods asked) and `verdict` `rose` or `fell` " +
  "only when the alerts' test says so (the same comparison and dispersed test, Benjamini–Hochberg at q = 0.01 over the summary's tests), else `no clear change`; `from` null when " +
  'the period before has no answers. `sentence`: the headline to paste, e.g. "Pipedrive: named in 64 % of answers (±6), #2 of 4 behind HubSpot; no clear change from last week." ' +
  "(± is half the interval's width in points).";

type TrackerRouteDeps = { trackers: Trackers; notifications: Notifications; alerts: Pick<Alerts, "inbox" | "markRead"> };

/**
 * Trackers (ADR 043): questions asked on a schedule, and their runs. Pro. The alerts inbox
 * is for any signed-in user: the header asks for it, and one without trackers has none.
 */
export function trackerRoutes({ trackers, notifications, alerts }: TrackerRouteDeps, guards: Guards) {
  return new Elysia()
    .use(guards)
    .get("/api/user/alerts", ({ userId }) => alerts.inbox(userId), {
      signedIn: true,
      response: AlertsInbox,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "The caller's newest alerts across their trackers",
        description: `The newest ${INBOX_LIMIT} alerts of the caller's trackers, each with its tracker and whether it was read, and \`unread\`: how many of all their alerts are unread. Empty for a user without trackers.`,
      }),
    })
    .post("/api/user/alerts/read", ({ userId, body }) => alerts.markRead(userId, body.ids), {
      signedIn: true,
      body: MarkAlertsRead,
      parse: "json",
      response: MarkedAlertsRead,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Mark alerts read",
        description:
          "`ids`: the alerts to mark read (ids of another user's alerts are ignored); without `ids`, all of the caller's. Answers how many are still unread.",
      }),
    })
    .get("/api/user/notifications", ({ userId }) => notifications.settings(userId), {
      signedIn: true,
      response: NotificationSettings,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "The e-mails the caller asked for",
        description:
          "Trackers' weekly digest and alert e-mails, to the account's address once it is proved (`confirmedAt`); `sentToday` of `dailyCap` (MAIL_DAILY_CAP) e-mails went to it today (UTC). " +
          "`emailConfigured` is false when the server has no SMTP_URL.",
      }),
    })
    .put("/api/user/notifications", ({ userId, body }) => notifications.update(userId, body), {
      signedIn: true,
      body: UpdateNotifications,
      parse: "json",
      response: UpdatedNotifications,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Turn trackers' e-mails on or off",
        description:
          "`digest` (weekly, Mondays 08:00 UTC) and `alerts` (one e-mail per run that finds alerts); turning one on is 400 while e-mail is not configured. " +
          "Turning one on while the address is not proved sends a confirmation link to it, and nothing else goes until it is followed: `confirmation` says `sent`, " +
          "`wait` (one went out less than 5 minutes ago) or `capped` (today's e-mails are used up); null when none was needed.",
      }),
    })
    .get("/api/trackers", ({ userId, query }) => trackers.list(userId, query), {
      proInWorkspace: true,
      transform: lastValues,
      query: WorkspaceFilter,
      response: TrackerList,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "The caller's trackers",
        description: `${PRO} Newest first, each with its last run and \`workspaceId\`: those of every workspace the caller is a member of, or with \`workspaceId\` of that one only (404 when not a member).`,
      }),
    })
    .post(
      "/api/trackers",
      async ({ actor, body, set }) => {
        set.status = 201;
        return trackers.create(actor, body);
      },
      {
        proInWorkspace: true,
        body: CreateTracker,
        parse: "json",
        response: { 201: Tracker },
        detail: forTokens("trackers", {
          tags: ["trackers"],
          summary: "Create a tracker",
          description:
            `${PRO} \`providers\` defaults to every connected provider. The schedule's cron (five fixed fields: no H, L, W, # or ?) is read in its time zone; one firing more often than ` +
            "TRACKER_MIN_INTERVAL_MINUTES is a 400. An account keeps at most MAX_TRACKERS_PER_ACCOUNT trackers in its personal workspace, and another workspace as many (409); a run asks at most MAX_TRACKER_RUN_ANSWERS answers (questions × providers × iterations; 400). " +
            "`workspaceId`: the workspace it belongs to, where the caller needs the editor role or above (404 when not a member, 403 `ROLE_REQUIRED` as a viewer); the caller's personal workspace by default.",
        }),
      },
    )
    .get("/api/trackers/estimate", ({ query }) => trackers.estimate(query), {
      pro: true,
      transform: lastValues,
      query: DetectabilityQuery,
      response: Detectability,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "What change a tracker of this shape can tell",
        description:
          `${PRO} Before a tracker is saved: with \`questions\` × \`iterations\` on \`providers\` (default: every provider connected here) and \`competitors\` (default 0), the smallest fall of the brand's mention rate ` +
          "on one provider, from 50% on every question, that its alert rule tells within 2 runs in at least 80% of simulated trackers (steps of 5 points; `to` null when not even a fall to 5% is), " +
          "under run-to-run variance like real assistants' (ADR 050), and `sentence` saying it. A saved tracker's own is its `detectability`.",
      }),
    })
    .get("/api/trackers/:id", ({ userId, params }) => trackers.get(userId, params.id), {
      proInWorkspace: true,
      params: TrackerId,
      response: Tracker,
      detail: forTokens("trackers", { tags: ["trackers"], summary: "One tracker", description: PRO }),
    })
    .patch("/api/trackers/:id", ({ actor, params, body }) => trackers.update(actor, params.id, body), {
      proInWorkspace: true,
      params: TrackerId,
      body: UpdateTracker,
      parse: "json",
      response: Tracker,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Edit, pause or resume a tracker",
        description: `${PRO} ${EDITOR} Any of the creation fields but \`workspaceId\`, and \`paused\`. A change of what is asked or counted (queries, providers, iterations, location, brand, competitors) starts a new series segment.`,
      }),
    })
    .delete(
      "/api/trackers/:id",
      async ({ actor, params, query }) => {
        await trackers.remove(actor, params.id, { keepSearches: query.keepSearches ?? true });
        return { success: true as const };
      },
      {
        proInWorkspace: true,
        params: TrackerId,
        transform: lastValues,
        query: DeleteTrackerQuery,
        response: v.object({ success: v.literal(true) }),
        detail: forTokens("trackers", {
          tags: ["trackers"],
          summary: "Delete a tracker and its runs",
          description: `${PRO} ${EDITOR} Its saved searches (\`savedSearches\` of the tracker) stay in the history as your own searches, no longer marked as a run's; with \`keepSearches=false\` they are deleted with it. One still running when it is deleted is ended and kept.`,
        }),
      },
    )
    .post(
      "/api/trackers/:id/runs",
      async ({ actor, params, set }) => {
        const started = await trackers.runNow(actor, params.id);
        set.status = 202;
        return started;
      },
      {
        proInWorkspace: true,
        params: TrackerId,
        response: { 202: StartedRun },
        detail: forTokens("trackers", {
          tags: ["trackers"],
          summary: "Run a tracker now",
          description: `${PRO} ${EDITOR} 202 with the run queued; 409 \`CONFLICT\` naming the run already queued or running; 429 \`RATE_LIMITED\` past TRACKER_MANUAL_RUNS_PER_DAY Run nows today across the trackers of the account's personal workspace (another workspace's trackers count for that workspace).`,
        }),
      },
    )
    .post("/api/trackers/:id/webhook/test", ({ userId, params }) => trackers.testWebhook(userId, params.id), {
      proInWorkspace: true,
      params: TrackerId,
      response: WebhookTestResult,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "Send a test message to a tracker's webhook",
        description:
          `${PRO} ${EDITOR} Posts a \`test\` event to the saved webhook now, once and without retries, as every delivery is posted (the address checked, signed with \`X-AISC-Signature\`, no redirect followed): ` +
          'JSON `{ id, event: "test", tracker: { id, name, timezone } }`, or for Slack a Block Kit message saying it is a test. ' +
          "Answers what came of it: `delivered` (the endpoint answered 2xx), its `status` when it answered, and `error` in words when it was not delivered (refused address, unreachable, no answer within 10 s, a non-2xx answer). " +
          "409 `CONFLICT` when the tracker has no webhook; 429 `RATE_LIMITED` past 10 tests a minute.",
      }),
    })
    .get("/api/trackers/:id/runs", ({ userId, params, query }) => trackers.runs(userId, params.id, query), {
      proInWorkspace: true,
      params: TrackerId,
      transform: lastValues,
      query: TrackerRunsQuery,
      response: TrackerRunList,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "A tracker's runs",
        description: `${PRO} Newest first; \`before\` is the previous page's \`nextBefore\`.`,
      }),
    })
    .get("/api/trackers/:id/trend", ({ userId, params, query }) => trackers.trend(userId, params.id, query), {
      proInWorkspace: true,
      params: TrackerId,
      transform: lastValues,
      query: TrendQuery,
      response: Trend,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "A tracker's trend",
        description:
          `${PRO} Per run (oldest first) and provider, for the brand and each competitor (\`subject\`): \`metric\` \`mention\` (answers naming it, of the answers), ` +
          "`sov` (its mentions, of every subject's), `citation` (answers citing its own domains) or `position` (its mean position among the products, over the answers ranking it); " +
          "`k` of `n` with the rate in percent (the mean, for position) and its 95% interval. `query` narrows to one of the tracker's queries (else each run over all of them); " +
          "`provider`, `subject`, `from` and `to` (a day YYYY-MM-DD in UTC or an ISO timestamp, both ends included) narrow further. Read from counts written when each run ended.",
      }),
    })
    .get("/api/trackers/:id/summary", ({ userId, params, query }) => trackers.summary(userId, params.id, query), {
      proInWorkspace: true,
      params: TrackerId,
      transform: lastValues,
      query: SummaryQuery,
      response: TrackerSummary,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "A tracker's headline for a period",
        description: `${PRO} ${SUMMARY}`,
      }),
    })
    .get("/api/trackers/:id/sources", ({ userId, params, query }) => trackers.sources(userId, params.id, query), {
      proInWorkspace: true,
      params: TrackerId,
      transform: lastValues,
      query: SourcesQuery,
      response: SourcesReport,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "A tracker's sources by type, and its citation gap",
        description:
          `${PRO} \`byType\`: per run and provider, the cited domains by type (the brand's own, a competitor's, user-generated, editorial or review, reference, retailer, other; ` +
          "from a documented list and rules, src/core/sources.ts), with their share. `gap`: domains cited in more answers naming a competitor (`competitorAnswers`) than answers naming the brand (`brandAnswers`; an answer naming both counts in both), neither's own site, the widest lead first. `provider`, `from`, `to` narrow both.",
      }),
    })
    .get("/api/trackers/:id/alerts", ({ userId, params }) => trackers.alerts(userId, params.id), {
      proInWorkspace: true,
      params: TrackerId,
      response: TrackerAlertList,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "A tracker's alerts",
        description:
          `${PRO} Newest first. After each run, per provider × subject (over all questions, and per question where it has 30 answers a window) on mention and citation rates, ` +
          "the latest run and the latest two (from the tracker's `alertWindow`) are compared with a baseline of up to 28 runs before them since the series last changed (at least 3), " +
          "counted with the dispersion the tracker's own runs show (`dispersion`: φ and its degrees of freedom) and Benjamini–Hochberg at q = 0.01 across the run's tests (ADR 050, `rule` 2): " +
          "`rose` or `fell` with both sides, `p`, `q` and `baselineRuns`; or `model-changed` when a provider answers with a model or web-search tool it had not used in the segment, " +
          "whose series then start afresh. A change is told once; the next one from the new level in turn. Alerts of ADR 045's rule (`rule` 1) keep their record.",
      }),
    })
    .get("/api/trackers/:id/changes", ({ userId, params, query }) => trackers.changes(userId, params.id, query), {
      proInWorkspace: true,
      params: TrackerId,
      transform: lastValues,
      query: ChangesQuery,
      response: TrackerChanges,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "What changed between a tracker's last two windows of runs",
        description:
          `${PRO} Per provider, the latest window of runs (the tracker's \`alertWindow\` runs that answered, in the current series segment) against the window before it: ` +
          "the products, companies and cited domains (\`domains\`) that entered or left the top 10 by how many answers named them (ties at the 10th place are in), " +
          "each with its \`count\` of \`n\` answers in both windows, and each window's runs and answers. Before two windows exist: \`ready\` false and no providers. \`provider\` narrows to one.",
      }),
    })
    .get("/api/trackers/:id/runs/:runId", ({ userId, params }) => trackers.run(userId, params.id, params.runId), {
      proInWorkspace: true,
      params: RunId,
      response: TrackerRun,
      detail: forTokens("trackers", {
        tags: ["trackers"],
        summary: "One run",
        description: `${PRO} Its status, counts and cost so far, and per query the saved search it produced.`,
      }),
    });
}
