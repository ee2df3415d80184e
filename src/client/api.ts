import { ReportConfirmation, ReportSettings, ReportTestResult, ReportUnsubscribed, type UpdateReport } from "#src/contract/reports.ts";
import * as v from "valibot";
import { LogoutResult, User, type Login, type Register } from "#src/contract/auth.ts";
import {
  BillingPlan,
  BillingPortalResult,
  CreateSubscriptionResult,
  ProStatus,
  SubscriptionActionResult,
  SubscriptionDetailsResult,
  VerifySubscriptionResult,
} from "#src/contract/billing.ts";
import { CompareReport } from "#src/contract/compare.ts";
import { CreatedToken, RevokedToken, TokenList } from "#src/contract/tokens.ts";
import { Health } from "#src/contract/health.ts";
import { BrandLensSettings, LensReport, type BrandEntry } from "#src/contract/lens.ts";
import {
  CurrentVariants,
  GeneratedVariants,
  LatestBatch,
  QuestionSuggestions,
  VariantBatch,
  VariantSet,
  type SaveVariants,
  type SuggestQuestions,
  type Variant,
} from "#src/contract/variants.ts";
import { QuotaStatus } from "#src/contract/quota.ts";
import { CostEstimate, SpendSummary } from "#src/contract/spend.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import { DeletedSearch, RenamedSearch, SavedSearchList } from "#src/contract/history.ts";
import { CancelResult, SearchEvent } from "#src/contract/search-events.ts";
import type { SearchRequest } from "#src/contract/search-request.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { fromSavedWire, fromWireResult, SavedSearchResponse, SearchResponse } from "#src/contract/search-wire.ts";
import { ApiStatus } from "#src/contract/status.ts";
import {
  CreateTracker,
  type DeleteTrackerQuery,
  Detectability,
  StartedRun,
  Tracker,
  TrackerList,
  TrackerRun,
  TrackerRunList,
  UpdateTracker,
  WebhookTestResult,
} from "#src/contract/trackers.ts";
import { ApiError, createHttp, type HttpOptions } from "#src/client/http.ts";
import { readEventStream } from "#src/client/sse.ts";
import { TrackerChanges, type ChangesQuery } from "#src/contract/changes.ts";
import { TrackerSummary, type SummaryQuery } from "#src/contract/summary.ts";
import { SourcesReport, type SourcesQuery, TrackerAlertList, Trend, type TrendParams } from "#src/contract/trend.ts";
import { AlertsInbox, MarkedAlertsRead } from "#src/contract/alerts-inbox.ts";
import { EmailConfirmation, NotificationSettings, Unsubscribed, UpdatedNotifications, type UpdateNotifications } from "#src/contract/notifications.ts";
import {
  AcceptedInvitation,
  AuditPage,
  CreatedInvitation,
  InvitationList,
  Member,
  MemberList,
  Workspace,
  WorkspaceList,
  type CreateInvitation,
  type WorkspaceRole,
} from "#src/contract/workspaces.ts";
import { CreatedShare, RevokedShare, SharedTrackerRun, SharedTrackerRunList, SharedView, ShareList, type CreateShare } from "#src/contract/shares.ts";

const Done = v.object({ success: v.literal(true) });

/** GET /api/user/searches: a page (limit, before) of the history, narrowed by its filters. */
export type HistoryQuery = {
  limit?: number;
  before?: string;
  query?: string;
  q?: string;
  provider?: ProviderId;
  iterations?: number;
  from?: string;
  to?: string;
  /** The searches trackers' runs made: listed (the default) or left out. */
  trackers?: "show" | "hide";
};

/** POST /api/search read back: the result keyed by provider, and the free searches left (absent for Pro). */
export type SearchAnswer = { result: SavedSearchResult; remainingSearches?: number };

/** What searchStream yields: the stream's progress, then `done` with the answer POST /api/search gives. */
export type SearchStreamEvent = Exclude<SearchEvent, { type: "done" | "error" }> | ({ type: "done" } & SearchAnswer);

// The API speaks the spec's JSON; callers get results keyed by provider (src/contract/search.ts).
const SearchAnswer = v.pipe(
  SearchResponse,
  v.transform(
    ({ remainingSearches, ...wire }): SearchAnswer => ({
      result: { ...fromWireResult(wire), id: wire.id },
      ...(remainingSearches === undefined ? {} : { remainingSearches }),
    }),
  ),
);
const SavedSearch = v.pipe(SavedSearchResponse, v.transform(fromSavedWire));
// A shared saved search is read back keyed by provider too.
const SharedViewRead = v.pipe(
  SharedView,
  v.transform((view) => (view.kind === "search" ? { ...view, search: fromSavedWire(view.search) } : view)),
);

/** The typed API client, shared by the web app, the CLI and the integration tests. Every answer is validated. */
export function createApiClient(options: HttpOptions = {}) {
  const http = createHttp(options);
  const doFetch = options.fetch ?? fetch;
  /**
   * A tracker's reads under `base`: the owner's /api/trackers/{id}, or a share link's
   * /api/shared/{token}, which answers the same but for runs' costs (the owner's spend).
   */
  const trackerReads = <Run extends typeof TrackerRun | typeof SharedTrackerRun, List extends typeof TrackerRunList | typeof SharedTrackerRunList>(
    base: string,
    runSchemas: { run: Run; list: List },
  ) => ({
    runs: (page: { before?: string; limit?: number } = {}) => http("GET", `${base}/runs${queryString(page)}`, runSchemas.list),
    run: (runId: string) => http("GET", `${base}/runs/${encodeURIComponent(runId)}`, runSchemas.run),
    trend: (query: TrendParams = {}) => http("GET", `${base}/trend${queryString(query)}`, Trend),
    sources: (query: SourcesQuery = {}) => http("GET", `${base}/sources${queryString(query)}`, SourcesReport),
    alerts: () => http("GET", `${base}/alerts`, TrackerAlertList),
    changes: (query: ChangesQuery = {}) => http("GET", `${base}/changes${queryString(query)}`, TrackerChanges),
    summary: (query: SummaryQuery = {}) => http("GET", `${base}/summary${queryString(query)}`, TrackerSummary),
  });
  const ofTracker = (id: string) => trackerReads(`/api/trackers/${encodeURIComponent(id)}`, { run: TrackerRun, list: TrackerRunList });

  return {
    search: (request: SearchRequest) => http("POST", "/api/search", SearchAnswer, request),

    /**
     * The same search with live progress: yields each event as the server sends it, ending with
     * `done` and the same answer as POST /api/search. A refusal before the stream, or its `error`
     * event, is thrown as the ApiError a plain call would throw.
     */
    async *searchStream(request: SearchRequest, signal?: AbortSignal): AsyncGenerator<SearchStreamEvent> {
      const response = await doFetch(`${options.baseUrl ?? ""}/api/search/stream`, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...options.headers },
        body: JSON.stringify(request),
        signal,
      });
      if (!response.ok || !response.body) throw new ApiError(response.status, await response.text(), response.statusText);
      for await (const data of readEventStream(response.body)) {
        const event = v.parse(SearchEvent, data);
        if (event.type === "error") {
          const { type: _, status, ...body } = event;
          throw new ApiError(status, JSON.stringify(body), "");
        }
        if (event.type !== "done") {
          yield event;
          continue;
        }
        const { id: _, ...answer } = event;
        yield answer;
        return;
      }
    },

    cancelSearch: () => http("POST", "/api/cancel-search", CancelResult),
    getSearch: (id: string) => http("GET", `/api/search/${encodeURIComponent(id)}`, SavedSearch),
    listSearches: (query: HistoryQuery = {}) => http("GET", `/api/user/searches${queryString(query)}`, SavedSearchList),
    /** A name shown instead of the query in the history; null gives the query back. */
    renameSearch: (id: string, title: string | null) => http("PATCH", `/api/search/${encodeURIComponent(id)}`, RenamedSearch, { title }),
    deleteSearch: (id: string) => http("DELETE", `/api/search/${encodeURIComponent(id)}`, DeletedSearch),
    status: () => http("GET", "/api/status", ApiStatus),

    register: (input: Register) => http("POST", "/api/register", User, input),
    login: (input: Login) => http("POST", "/api/login", User, input),
    logout: () => http("POST", "/api/logout", LogoutResult),
    /** The signed-in user, or null: spec §7 counts a 401 as "not logged in", not as an error. */
    async currentUser(): Promise<User | null> {
      try {
        return await http("GET", "/api/auth/user", User);
      } catch (error) {
        if (error instanceof ApiError && error.code === "NOT_SIGNED_IN") return null;
        throw error;
      }
    },
    proStatus: () => http("GET", "/api/pro-status", ProStatus),
    billingPlan: () => http("GET", "/api/billing/plan", BillingPlan),
    createSubscription: () => http("POST", "/api/create-subscription", CreateSubscriptionResult),
    verifySubscription: (sessionId: string) => http("POST", "/api/verify-subscription", VerifySubscriptionResult, { sessionId }),
    subscriptionDetails: () => http("GET", "/api/subscription-details", SubscriptionDetailsResult),
    cancelSubscription: (subscriptionId: string) => http("POST", "/api/cancel-subscription", SubscriptionActionResult, { subscriptionId }),
    resumeSubscription: (subscriptionId: string) => http("POST", "/api/resume-subscription", SubscriptionActionResult, { subscriptionId }),
    billingPortal: (returnUrl?: string) => http("POST", "/api/billing-portal", BillingPortalResult, returnUrl ? { returnUrl } : {}),
    quota: () => http("GET", "/api/quota", QuotaStatus),
    /** What a search of N iterations should cost on the connected providers (ADR 041). */
    estimate: (iterations: number) => http("GET", `/api/search/estimate?iterations=${iterations}`, CostEstimate),
    /** What the signed-in account's searches have cost today and this month. */
    spend: () => http("GET", "/api/user/spend", SpendSummary),
    health: () => http("GET", "/healthz", Health),
    createToken: (name: string) => http("POST", "/api/tokens", CreatedToken, { name }),
    listTokens: () => http("GET", "/api/tokens", TokenList),
    revokeToken: (id: string) => http("DELETE", `/api/tokens/${encodeURIComponent(id)}`, RevokedToken),

    /** The saved variants of the query, written by the model the first time (or again with `regenerate`). */
    suggestQuestions: (input: v.InferInput<typeof SuggestQuestions>) => http("POST", "/api/question-suggestions", QuestionSuggestions, input),
    generateVariants: (input: { query: string; iterations?: number; executeSearches?: boolean; regenerate?: boolean }) =>
      http("POST", "/api/generate-variants", GeneratedVariants, input),
    currentVariants: (query: string) => http("GET", `/api/variants?${new URLSearchParams({ query })}`, CurrentVariants),
    saveVariants: (input: SaveVariants) => http("PUT", "/api/variants", VariantSet, input),
    createBatch: (input: { query: string; iterations?: number; variants: Variant[] }) => http("POST", "/api/variant-batches", VariantBatch, input),
    runBatch: (id: string, positions?: number[]) =>
      http("POST", `/api/variant-batches/${encodeURIComponent(id)}/run`, VariantBatch, positions ? { positions } : {}),
    getBatch: (id: string) => http("GET", `/api/variant-batches/${encodeURIComponent(id)}`, VariantBatch),
    latestBatch: (query: string) => http("GET", `/api/variant-batches?${new URLSearchParams({ query })}`, LatestBatch),
    /** Spec §2 compare: the original query and its variants (each the caller's latest saved search of it). */
    compare: (input: { query?: string; variants: string[] }) => {
      const params = new URLSearchParams();
      if (input.query) params.set("compareQuery", input.query);
      for (const variant of input.variants) params.append("compareVariants", variant);
      return http("GET", `/api/compare?${params}`, CompareReport);
    },
    brandLens: () => http("GET", "/api/user/brand-lens", BrandLensSettings),
    saveBrandLens: (settings: { brand: BrandEntry | null; competitors: BrandEntry[] }) => http("PUT", "/api/user/brand-lens", BrandLensSettings, settings),
    /** The lens on a saved search: the profile's brand, or `brand` (with its aliases and competitors) for this view only. */
    searchLens: (id: string, brand?: { name: string; aliases?: string[]; competitors?: string[] }) => {
      const params = new URLSearchParams();
      if (brand) {
        params.set("brand", brand.name);
        for (const alias of brand.aliases ?? []) params.append("alias", alias);
        for (const competitor of brand.competitors ?? []) params.append("competitor", competitor);
      }
      return http("GET", `/api/search/${encodeURIComponent(id)}/lens${params.size ? `?${params}` : ""}`, v.object({ lens: v.nullable(LensReport) }));
    },

    // Trackers: Pro.
    /** Every workspace's the caller is a member of, or with `workspaceId` that one's. */
    listTrackers: (filter: { workspaceId?: string } = {}) => http("GET", `/api/trackers${queryString(filter)}`, TrackerList),
    createTracker: (input: v.InferInput<typeof CreateTracker>) => http("POST", "/api/trackers", Tracker, input),
    getTracker: (id: string) => http("GET", `/api/trackers/${encodeURIComponent(id)}`, Tracker),
    /**
     * What change a tracker of this shape could tell, before it is saved (a saved one's
     * is its `detectability`). The server simulates it: a large shape takes a few seconds the first time.
     */
    estimateTracker: (shape: { questions: number; iterations: number; providers?: number; competitors?: number }) =>
      http("GET", `/api/trackers/estimate${queryString(shape)}`, Detectability),
    updateTracker: (id: string, change: v.InferInput<typeof UpdateTracker>) => http("PATCH", `/api/trackers/${encodeURIComponent(id)}`, Tracker, change),
    /** Its saved searches stay in the history unless `keepSearches` is false. */
    deleteTracker: (id: string, query: DeleteTrackerQuery = {}) =>
      http("DELETE", `/api/trackers/${encodeURIComponent(id)}${queryString(query)}`, v.object({ success: v.literal(true) })),
    /** Send test: a `test` event posted to the tracker's webhook now, and whether it was delivered; 409 (code CONFLICT) without a webhook. */
    testTrackerWebhook: (id: string) => http("POST", `/api/trackers/${encodeURIComponent(id)}/webhook/test`, WebhookTestResult),
    /** A tracker's report by e-mail: cadence and recipients with their status. */
    getTrackerReport: (id: string) => http("GET", `/api/trackers/${encodeURIComponent(id)}/report`, ReportSettings),
    setTrackerReport: (id: string, body: UpdateReport) => http("PUT", `/api/trackers/${encodeURIComponent(id)}/report`, ReportSettings, body),
    /** A new share link for the report's recipients, after the owner revoked theirs; 409 while one is live. */
    newTrackerReportLink: (id: string) => http("POST", `/api/trackers/${encodeURIComponent(id)}/report/link`, ReportSettings),
    /** "Send a test now": to the caller's own confirmed address only. */
    testTrackerReport: (id: string) => http("POST", `/api/trackers/${encodeURIComponent(id)}/report/test`, ReportTestResult),
    getReportConfirmation: (token: string) => http("GET", `/api/email/report/confirm/${encodeURIComponent(token)}`, ReportConfirmation),
    confirmReport: (token: string) => http("POST", `/api/email/report/confirm/${encodeURIComponent(token)}`, ReportConfirmation),
    unsubscribeReport: (token: string) => http("POST", `/api/email/report/unsubscribe/${encodeURIComponent(token)}`, ReportUnsubscribed),
    /** Run now: 202 with the queued run; 409 (code CONFLICT) names the run already queued or running. */
    runTracker: (id: string) => http("POST", `/api/trackers/${encodeURIComponent(id)}/runs`, StartedRun),
    listTrackerRuns: (id: string, page: { before?: string; limit?: number } = {}) => ofTracker(id).runs(page),
    getTrackerRun: (id: string, runId: string) => ofTracker(id).run(runId),
    /** The cited domains by type per run and provider, and the citation gap. */
    getTrackerSources: (id: string, query: SourcesQuery = {}) => ofTracker(id).sources(query),
    /** What moved, newest first. */
    listTrackerAlerts: (id: string) => ofTracker(id).alerts(),
    /** Per provider, what entered and left the top 10s between the latest window of runs and up to 7 before it, beyond the run-to-run noise. */
    getTrackerChanges: (id: string, query: ChangesQuery = {}) => ofTracker(id).changes(query),
    /** The brand's headline for a period: rate, rank, share of voice and change, across providers and per provider, and a sentence. */
    getTrackerSummary: (id: string, query: SummaryQuery = {}) => ofTracker(id).summary(query),
    /** The header's bell: the newest alerts across the caller's trackers, and how many are unread. */
    listUserAlerts: () => http("GET", "/api/user/alerts", AlertsInbox),
    /** Marks `ids` read, or without them all of the caller's alerts; answers how many are still unread. */
    markAlertsRead: (ids?: string[]) => http("POST", "/api/user/alerts/read", MarkedAlertsRead, { ids }),
    /** The trackers' e-mails the caller asked for, and whether this server can send e-mail. */
    getNotifications: () => http("GET", "/api/user/notifications", NotificationSettings),
    /** Turning one on while the address is not proved sends a confirmation link to it (`confirmation`, ADR 053). */
    updateNotifications: (change: UpdateNotifications) => http("PUT", "/api/user/notifications", UpdatedNotifications, change),
    /** The confirmation link again: 429 (RATE_LIMITED) within 5 minutes of the last, or past the day's cap. */
    resendConfirmation: () => http("POST", "/api/user/notifications/confirmation", UpdatedNotifications),
    /** What a confirmation link is for (no session needed); 404 (NOT_FOUND) for a link that is not valid. */
    getEmailConfirmation: (token: string) => http("GET", `/api/email/confirm/${encodeURIComponent(token)}`, EmailConfirmation),
    /** Follows a confirmation link: the address is proved. */
    confirmEmail: (token: string) => http("POST", `/api/email/confirm/${encodeURIComponent(token)}`, EmailConfirmation),
    /** Follows an unsubscribe link: that kind of e-mail is off (no session needed). */
    unsubscribeEmail: (token: string) => http("POST", `/api/email/unsubscribe/${encodeURIComponent(token)}`, Unsubscribed),
    /** Per run and provider, for the brand and each competitor; `metric` defaults to mention. */
    getTrackerTrend: (id: string, query: TrendParams = {}) => ofTracker(id).trend(query),

    // Share links: made, listed and revoked by their owner; read by anyone holding one.
    createShare: (input: v.InferInput<typeof CreateShare>) => http("POST", "/api/shares", CreatedShare, input),
    /** The links the caller made, or with `workspaceId` every link of that workspace. */
    listShares: (filter: { workspaceId?: string } = {}) => http("GET", `/api/shares${queryString(filter)}`, ShareList),
    revokeShare: (id: string) => http("DELETE", `/api/shares/${encodeURIComponent(id)}`, RevokedShare),
    /** What a link shows (no session needed); a saved search comes keyed by provider, as getSearch gives it. */
    getShared: (token: string) => http("GET", `/api/shared/${encodeURIComponent(token)}`, SharedViewRead),
    /** A shared tracker's reads, as the owner's getTracker… methods answer them (a frozen link's as of its snapshot). */
    shared: (token: string) => trackerReads(`/api/shared/${encodeURIComponent(token)}`, { run: SharedTrackerRun, list: SharedTrackerRunList }),

    // Workspaces (ADR 071): the caller's, their members, invitations and audit log, as the caller's role there allows.
    listWorkspaces: () => http("GET", "/api/workspaces", WorkspaceList),
    createWorkspace: (name: string) => http("POST", "/api/workspaces", Workspace, { name }),
    getWorkspace: (id: string) => http("GET", `/api/workspaces/${encodeURIComponent(id)}`, Workspace),
    renameWorkspace: (id: string, name: string) => http("PATCH", `/api/workspaces/${encodeURIComponent(id)}`, Workspace, { name }),
    deleteWorkspace: (id: string) => http("DELETE", `/api/workspaces/${encodeURIComponent(id)}`, Done),
    listMembers: (id: string) => http("GET", `/api/workspaces/${encodeURIComponent(id)}/members`, MemberList),
    changeMemberRole: (id: string, userId: string, role: WorkspaceRole) =>
      http("PATCH", `/api/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`, Member, { role }),
    /** Removes a member; the caller's own id is leaving. */
    removeMember: (id: string, userId: string) => http("DELETE", `/api/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`, Done),
    /** The link (`url`) is in this answer only. */
    createInvitation: (id: string, input: CreateInvitation) => http("POST", `/api/workspaces/${encodeURIComponent(id)}/invitations`, CreatedInvitation, input),
    listInvitations: (id: string) => http("GET", `/api/workspaces/${encodeURIComponent(id)}/invitations`, InvitationList),
    revokeInvitation: (id: string, invitationId: string) =>
      http("DELETE", `/api/workspaces/${encodeURIComponent(id)}/invitations/${encodeURIComponent(invitationId)}`, Done),
    acceptInvitation: (token: string) => http("POST", `/api/invitations/${encodeURIComponent(token)}/accept`, AcceptedInvitation),
    /** Newest first; `before` is the previous page's `nextBefore`. */
    getWorkspaceAudit: (id: string, page: { before?: number; limit?: number } = {}) =>
      http("GET", `/api/workspaces/${encodeURIComponent(id)}/audit${queryString(page)}`, AuditPage),
    /** The audit log as the server's CSV (its newest entries), as text. */
    async getWorkspaceAuditCsv(id: string): Promise<string> {
      const response = await doFetch(`${options.baseUrl ?? ""}/api/workspaces/${encodeURIComponent(id)}/audit.csv`, {
        credentials: "include",
        headers: { accept: "text/csv", ...options.headers },
      });
      const text = await response.text();
      if (!response.ok) throw new ApiError(response.status, text, response.statusText);
      return text;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** `?name=value&…` of the values given (undefined ones left out), or "" when none is. */
function queryString(query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams(Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])));
  return params.size ? `?${params}` : "";
}
