import * as v from "valibot";
import type { ApiClient } from "#src/client/api.ts";
import { LensQuery, NameInput } from "#src/contract/lens.ts";
import { listModels, providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { LocationInput } from "#src/contract/location.ts";
import { Iterations, SearchQuery } from "#src/contract/search-request.ts";
import { CreateShare, type Share } from "#src/contract/shares.ts";
import { TrendQuery } from "#src/contract/trend.ts";
import { MAX_AUDIT_PAGE } from "#src/contract/workspaces.ts";
import { visibleJson, visibleText } from "#src/core/display-text.ts";
import { resultToJson } from "#src/core/export.ts";
import { CliError } from "#cli/lib/exit.ts";
import { lensOf } from "#cli/lib/results.ts";
import { lensSummary, providerStatusText, resultSummary, simulatedLine } from "#cli/lib/render.ts";
import { latestResults, runLine, runSummary, simulatedInRun, when } from "#cli/lib/trackers.ts";
import { noPointsText, simulatedFlags, simulatedFlagsOf, trendSummary } from "#cli/lib/trend.ts";
import { alertProviders, alertsSummary, NO_ALERTS } from "#cli/lib/alerts.ts";
import { summaryText } from "#cli/lib/summary.ts";
import type { Context } from "#cli/lib/context.ts";
import { checkShareIn, checkTrackerIn, currentOrPersonal, currentWorkspace, roleLabel, withRole, workspaceNames } from "#cli/lib/workspaces.ts";

/*
 * The MCP tools: each an input schema built from the contract's schemas (the same rules and
 * messages as the API), and a call through the typed client answering a short summary for the
 * model to read plus the JSON the CLI's --json prints. What a person or a provider wrote (a query, a
 * name, a title) reaches the model's context through visibleText in the summary and visibleJson in
 * the JSON: an invisible character named or escaped, never read as something else.
 */

export type ToolAnswer = { summary: string; json: string };
export type Tool = {
  name: string;
  description: string;
  input: v.ObjectSchema<v.ObjectEntries, undefined>;
  /** `context` gives the workspace chosen with `aisc workspace use` or `aisc mcp --workspace`, a tool's default. */
  run: (api: ApiClient, input: unknown, context: Context) => Promise<ToolAnswer>;
};

function defineTool<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(tool: {
  name: string;
  description: string;
  input: S;
  run: (api: ApiClient, input: v.InferOutput<S>, context: Context) => Promise<ToolAnswer>;
}): Tool {
  return {
    ...tool,
    run: async (api, input, context) => {
      const parsed = v.safeParse(tool.input, input);
      if (!parsed.success) throw new CliError("usage", parsed.issues[0].message);
      return tool.run(api, parsed.output, context);
    },
  };
}

const said = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description<v.InferOutput<S>, string>(text));
const BrandName = LensQuery.entries.brand.wrapped;
const json = (value: unknown) => `${visibleJson(JSON.stringify(value, null, 2))}\n`;
const Id = (what: string) => said(v.pipe(v.string(), v.trim(), v.minLength(1, "An id is required")), what);
// The runs tracker_latest_run looks through for the newest one with results.
const RUNS_READ = 20;
// tracker_trend's inputs are the API's query (its rules and messages); the date range's check runs on the whole query.
const TrendFields = TrendQuery.pipe[0].entries;
const ShareFields = CreateShare.entries;
/** A share link in one line, for the model to read. */
/** The optional `workspace` of the tracker and share tools. */
const WorkspaceRef = (what: string) =>
  v.optional(said(v.pipe(v.string(), v.trim(), v.minLength(1, "workspace must be a workspace's id or name (from list_workspaces)")), what));
const IN_WORKSPACE = "The workspace, by its id or name in any letter case (from list_workspaces)";
/** A tracker's tools: the tracker is named by id wherever it is; a workspace given must be its. */
const TrackerWorkspace = WorkspaceRef(`${IN_WORKSPACE}: checked to be the tracker's own; optional`);
const shareLine = (share: Share) =>
  `- ${share.id} · ${share.kind}${share.kind === "tracker" ? (share.frozen ? " (frozen)" : " (living)") : ""} · ${visibleText(share.title)} · ${share.url} · ` +
  `${share.expired ? "expired" : share.expiresAt ? `expires ${when(share.expiresAt)} UTC` : "no expiry"} · last opened ${share.lastOpenedAt ? `${when(share.lastOpenedAt)} UTC` : "never"}`;

export const tools: Tool[] = [
  defineTool({
    name: "provider_status",
    description:
      `Whether each provider (${providerIds.map((id) => providerCatalogue[id].model).join(", ")}) can answer now, as the server last checked it ` +
      "(its model retrieved with its key, or a few-token answer where its API has no models endpoint, every few minutes): " +
      "connected, simulated, or why not and what to do (no key, key refused, model retired, out of credit or quota, rate-limited, unreachable).",
    input: v.object({}),
    async run(api) {
      const status = await api.status();
      return { summary: providerStatusText(status), json: json(status) };
    },
  }),
  defineTool({
    name: "search",
    description:
      `Ask ${listModels(providerIds)} the same question with their web search on, and get which products, companies and sources each returned (saved to the user's history). ` +
      "Several iterations (Pro) tell how often each item comes back; a brand adds its mention rate and share of voice (Pro).",
    input: v.object({
      query: said(SearchQuery, "The question, as a person would ask an AI assistant (e.g. 'best CRM for a small agency')"),
      iterations: v.optional(said(Iterations, "Times to ask each provider (Pro: 5, 10, 25, 50 or 100; free: 1)")),
      brand: v.optional(said(BrandName, "A brand to look for in the answers (Pro)")),
      location: v.optional(
        said(
          LocationInput,
          "Ask from this place: { country (ISO 3166-1 code, e.g. DE), and optionally region, city, timezone (IANA) }. ChatGPT's, Claude's and Perplexity's web search search as from there; Gemini's takes no location",
        ),
      ),
    }),
    async run(api, { query, iterations, brand, location }) {
      const { result } = await api.search({ query, ...(iterations ? { iterations } : {}), ...(location ? { options: { location } } : {}) });
      const lens = await lensOf(api, result.id, brand);
      return { summary: [resultSummary(result), ...(lens ? [lensSummary(lens)] : [])].join("\n\n"), json: resultToJson(result, { lens }) };
    },
  }),
  defineTool({
    name: "get_search",
    description:
      "A saved search by its id (from search or list_searches): each provider's products, companies, sources and frequencies, and for Pro the brand lens of the user's saved brand.",
    input: v.object({ id: Id("The saved search's id") }),
    async run(api, { id }) {
      const result = await api.getSearch(id);
      const lens = await lensOf(api, id, undefined);
      return { summary: [resultSummary(result), ...(lens ? [lensSummary(lens)] : [])].join("\n\n"), json: resultToJson(result, { lens }) };
    },
  }),
  defineTool({
    name: "list_searches",
    description: "The user's saved searches, newest first (id, query, date, iterations, totals).",
    input: v.object({
      // The API's limit (1–100) as a number: the contract's is the query string's text.
      limit: v.optional(
        said(
          v.pipe(v.number(), v.integer(), v.minValue(1, "limit must be at least 1"), v.maxValue(100, "limit must be at most 100")),
          "How many (1–100, default 20)",
        ),
      ),
      query: v.optional(said(SearchQuery, "Only the searches of this query (any letter case)")),
    }),
    async run(api, input) {
      const list = await api.listSearches(input);
      const lines = list.searches.map(
        (s) =>
          `- ${s.id} · ${s.timestamp.slice(0, 10)} · "${visibleText(s.query)}" · ${s.iterationCount} iteration(s) · ${s.totalProducts} products${s.simulated ? " · simulated" : ""}`,
      );
      return { summary: lines.length ? `${lines.length} saved searches:\n${lines.join("\n")}` : "No saved searches.", json: json(list) };
    },
  }),
  defineTool({
    name: "generate_variants",
    description: "Rephrasings of a query as different people might type it, each with why (Pro). Search them, then compare.",
    input: v.object({ query: said(SearchQuery, "The original query") }),
    async run(api, { query }) {
      const generated = await api.generateVariants({ query });
      const by = generated.generatedBy;
      const written = by ? ` (written by ${providerCatalogue[by.provider].model}${by.mode === "simulated" ? ", simulated" : ""})` : "";
      return {
        summary: [
          `${generated.variants.length} variants of "${query}"${written}:`,
          ...generated.variants.map((variant) => `- ${visibleText(variant.query)}: ${visibleText(variant.reasoning)}`),
        ].join("\n"),
        json: json(generated),
      };
    },
  }),
  defineTool({
    name: "compare",
    description:
      "Compare the user's latest saved search of a query with those of its variants (Pro): items in common, top items, and significant differences (Fisher's exact test).",
    input: v.object({
      query: said(SearchQuery, "The original query"),
      variants: v.optional(said(v.array(SearchQuery), "The variants' queries; default: the variants of the user's latest batch for the query")),
    }),
    async run(api, { query, variants }) {
      const asked = variants ?? (await api.latestBatch(query)).batch?.items.map((item) => item.query) ?? [];
      const report = await api.compare({ query, variants: asked });
      const top = (items: Array<{ name: string; searches: number }>) =>
        items.map((item) => `${visibleText(item.name)} (${item.searches})`).join(", ") || "none";
      const summary = [
        `${report.searches.length} searches compared${report.missing.length ? `; no saved search for ${report.missing.map((q) => `"${visibleText(q)}"`).join(", ")}` : ""}.`,
        `Top products: ${top(report.summary.topProducts)}`,
        `Top companies: ${top(report.summary.topCompanies)}`,
        simulatedLine(providerIds.filter((id) => report.searches.some((search) => search.simulated[id]))),
      ]
        .filter(Boolean)
        .join("\n");
      return { summary, json: json(report) };
    },
  }),
  defineTool({
    name: "brand_lens",
    description:
      "How visible a brand is in a saved search's answers (Pro), as the web's Brand Lens shows it: per provider its mention rate, share of voice against competitors, positions and own-domain citations. " +
      "Without a brand, the user's saved brand; a brand the user saved (as theirs or a competitor) keeps its saved other names and domains, and is measured against the user's other saved brands unless competitors are given.",
    input: v.object({
      id: Id("The saved search's id"),
      brand: v.optional(said(BrandName, "The brand (default: the user's saved brand)")),
      aliases: v.optional(said(v.array(NameInput("aliases")), "Other names of the brand")),
      competitors: v.optional(said(v.array(NameInput("competitors")), "Competitors to measure share of voice against (default: the user's saved ones)")),
    }),
    async run(api, { id, brand, aliases, competitors }) {
      const { lens } = await api.searchLens(id, brand ? { name: brand, aliases, competitors } : undefined);
      return { summary: lens ? lensSummary(lens) : "No brand named: give one, or save yours in the profile's Brand lens card.", json: json(lens) };
    },
  }),
  defineTool({
    name: "list_trackers",
    description:
      `The user's trackers (Pro): sets of questions asked of ${listModels(providerIds)} on a schedule, each run counting how often the answers name the user's brand. ` +
      "Per tracker its id, name, workspace, schedule, last run and its status, next run, and whether it is paused.",
    input: v.object({
      workspace: WorkspaceRef(`${IN_WORKSPACE}: only its trackers. Default: the workspace chosen with aisc workspace use, else every workspace's`),
    }),
    async run(api, { workspace }, context) {
      const chosen = await currentWorkspace(context, api, workspace);
      const list = await api.listTrackers(chosen ? { workspaceId: chosen.id } : {});
      // Each tracker's workspace by name (by id when the token may not list workspaces).
      const names = await workspaceNames(api);
      const lines = list.trackers.map(
        (t) =>
          `- ${t.id} · ${visibleText(t.name)} · ${t.scheduleText} · brand ${visibleText(t.brand.name)} · ${t.queries.length} queries · last run: ${t.lastRun ? `${t.lastRun.status} (${when(t.lastRun.scheduledFor)} UTC)` : "never"} · ${t.paused ? `paused${t.pausedReason ? `: ${visibleText(t.pausedReason)}` : ""}` : `next run ${when(t.nextRunAt)} UTC`} · workspace ${visibleText(names.get(t.workspaceId) ?? t.workspaceId)}`,
      );
      return { summary: lines.length ? `${lines.length} trackers:\n${lines.join("\n")}` : "No trackers.", json: json(list) };
    },
  }),
  defineTool({
    name: "tracker_latest_run",
    description:
      "A tracker's headline over the last 7 days first (Pro): the sentence to paste, and per provider the brand's mention rate with its 95% interval, rank among the tracked brands, share of voice, " +
      "and its change against the 7 days before, told only when the alerts' test tells it. Then its latest run with results: per query, how often each provider's answers named the user's brand (mention rate with its 95% band for the tracker's rate on the query, widened by how much its runs vary) and the saved search it produced; " +
      "its status, answers and cost, and which providers were simulated (invented answers). A newer run still going, skipped or failed is named too.",
    input: v.object({ id: Id("The tracker's id (from list_trackers)"), workspace: TrackerWorkspace }),
    async run(api, { id, workspace }, context) {
      await checkTrackerIn(context, api, id, workspace);
      const [tracker, { runs }, headline] = await Promise.all([api.getTracker(id), api.listTrackerRuns(id, { limit: RUNS_READ }), api.getTrackerSummary(id)]);
      const results = await latestResults(api, runs);
      // Runs come newest first: the newest, when it is not the one with results, is still going, or was skipped or failed.
      const newest = runs[0];
      const simulated = results ? await simulatedInRun(api, results) : {};
      const summary = [
        summaryText(headline),
        results ? runSummary(results, tracker, simulated) : `${visibleText(tracker.name)}: no run with results yet.`,
        ...(newest && newest.id !== results?.id ? [`Newest run: ${runLine(newest)}`] : []),
      ].join("\n");
      return { summary, json: json({ tracker, summary: headline, run: results ?? null, simulated }) };
    },
  }),
  defineTool({
    name: "tracker_trend",
    description:
      "A tracker's trend (Pro): per provider and run (oldest first), for the user's brand and each competitor, a metric with n and its 95% band: " +
      "mention rate (default), share of voice, citation rate of their own domains, or mean position among the products when ranked (over the k answers ranking it); and which providers are simulated (invented answers). " +
      "A band covers the tracker's figure, not only that run's answers: the answers of one run move together, so it is widened by how much the provider's runs vary (its dispersion φ, given per provider; 1 is answers as independent).",
    input: v.object({
      id: Id("The tracker's id (from list_trackers)"),
      metric: v.optional(said(TrendFields.metric.wrapped, "mention (default), sov, citation or position")),
      query: v.optional(said(TrendFields.query.wrapped, "One of the tracker's queries, as written (default: each run over all of them)")),
      provider: v.optional(said(TrendFields.provider.wrapped, `Only this provider: ${providerIds.join(", ")}`)),
      subject: v.optional(said(TrendFields.subject.wrapped, "Only the brand or this competitor, by name")),
      from: v.optional(said(TrendFields.from.wrapped, "Runs from this day (YYYY-MM-DD, UTC) or ISO timestamp on")),
      to: v.optional(said(TrendFields.to.wrapped, "Runs up to this day (YYYY-MM-DD, UTC, included) or ISO timestamp")),
      workspace: TrackerWorkspace,
    }),
    async run(api, { id, workspace, ...filters }, context) {
      const parsed = v.safeParse(TrendQuery, filters);
      if (!parsed.success) throw new CliError("usage", parsed.issues[0].message);
      await checkTrackerIn(context, api, id, workspace);
      const answer = await api.getTrackerTrend(id, parsed.output);
      const simulated = await simulatedFlags(api, answer);
      const summary = answer.points.length ? trendSummary(answer, simulated) : noPointsText(parsed.output);
      return { summary, json: json({ ...answer, simulated }) };
    },
  }),
  defineTool({
    name: "tracker_alerts",
    description:
      "A tracker's alerts (Pro), newest first: where the user's brand's or a competitor's mention or citation rate on a provider moved beyond how much the tracker's runs vary from run to run " +
      "(its latest run and latest two against up to 28 runs before them since it last changed, counted with the dispersion φ its runs show; both windows with their 95% bands and n, p and the false-discovery-controlled q, " +
      "the saved searches behind it), and where a provider's model or search tool changed; and which providers are simulated (invented answers). " +
      "An alert of the earlier rule (rule 1, which took a run's answers as independent) is marked: it may be noise.",
    input: v.object({ id: Id("The tracker's id (from list_trackers)"), workspace: TrackerWorkspace }),
    async run(api, { id, workspace }, context) {
      await checkTrackerIn(context, api, id, workspace);
      const answer = await api.listTrackerAlerts(id);
      const simulated = await simulatedFlagsOf(api, alertProviders(answer.alerts));
      const summary = answer.alerts.length ? alertsSummary(answer.alerts, simulated) : NO_ALERTS;
      return { summary, json: json({ ...answer, simulated }) };
    },
  }),
  defineTool({
    name: "share_create",
    description:
      "Make a read-only link to a saved search, a comparison of a query with its variants (Pro) or a tracker (Pro), which anyone can open without an account; " +
      "it shows no identity or other data of the user's. Needs the scope that reads what it shares (history, compare or trackers). " +
      "Answers the link, which keeps working after this token is revoked, until the link is revoked (share_revoke) or expires.",
    input: v.object({
      kind: said(ShareFields.kind, "search, compare or tracker"),
      id: said(
        ShareFields.id,
        "The saved search's id (for compare: the original query's saved search; from list_searches), or the tracker's (from list_trackers)",
      ),
      expiresInDays: v.optional(said(ShareFields.expiresInDays.wrapped, "The link stops working after this many days (1–365; default: until revoked)")),
      frozen: v.optional(said(ShareFields.frozen.wrapped, "Tracker only: a snapshot of the runs finished now instead of the living report")),
      variants: v.optional(said(ShareFields.variants.wrapped, "Compare only: the variants compared (default: the query's saved variants)")),
      workspace: WorkspaceRef(
        `${IN_WORKSPACE}: where a search's or comparison's link belongs (default: the one chosen with aisc workspace use, else the personal one); a tracker's link is always its tracker's, checked against it`,
      ),
    }),
    async run(api, { workspace, ...input }, context) {
      if (input.kind === "tracker") await checkTrackerIn(context, api, input.id, workspace);
      const chosen = input.kind === "tracker" ? undefined : await currentWorkspace(context, api, workspace);
      const created = await withRole(chosen, api.createShare({ ...input, ...(chosen ? { workspaceId: chosen.id } : {}) }));
      // The tool acts with a token: the answer's note says the link outlives it.
      const note = created.note ? `\n${created.note}` : "";
      return {
        summary: `Share link (${created.kind}, ${visibleText(created.title)}): ${created.url}\nRevoke it with share_revoke ${created.id}.${note}`,
        json: json(created),
      };
    },
  }),
  defineTool({
    name: "share_list",
    description:
      "Share links, newest first: what each shows, its link, when it expires and when someone last opened it. In a workspace, every member's links of it; without one, the links the user made.",
    input: v.object({
      workspace: WorkspaceRef(`${IN_WORKSPACE}: its links. Default: the workspace chosen with aisc workspace use, else the links the user made`),
    }),
    async run(api, { workspace }, context) {
      const chosen = await currentWorkspace(context, api, workspace);
      const list = await api.listShares(chosen ? { workspaceId: chosen.id } : {});
      return {
        summary: list.shares.length ? `${list.shares.length} share links:\n${list.shares.map(shareLine).join("\n")}` : "No share links.",
        json: json(list),
      };
    },
  }),
  defineTool({
    name: "share_revoke",
    description: "Revoke a share link (one the user made, or as an editor of its workspace): it answers 404 from then on.",
    input: v.object({
      id: Id("The link's id (from share_list)"),
      workspace: WorkspaceRef(`${IN_WORKSPACE}: checked to be the link's own; optional`),
    }),
    async run(api, { id, workspace }, context) {
      await checkShareIn(context, api, id, workspace);
      const answer = await api.revokeShare(id);
      return { summary: `Revoked ${id}.`, json: json(answer) };
    },
  }),
  defineTool({
    name: "list_workspaces",
    description:
      "The user's workspaces, where trackers and share links live: per workspace its id, name, the user's role in it (viewer reads; editor also creates, runs and changes trackers and links; admin also manages members and reads the audit log; owner everything), " +
      "how many members it has, whether it is the user's personal one, and which one the tools act in by default.",
    input: v.object({}),
    async run(api, _input, context) {
      const [list, chosen] = await Promise.all([api.listWorkspaces(), currentWorkspace(context, api).catch(() => undefined)]);
      const lines = list.workspaces.map(
        (w) =>
          `- ${w.id} · ${visibleText(w.name)} · ${roleLabel(w)} · ${w.members} ${w.members === 1 ? "member" : "members"}${w.id === chosen?.id ? " · the default" : ""}`,
      );
      const fallback = chosen ? "" : "\nNo workspace is chosen: the lists cover every workspace, new links go to the personal one.";
      return { summary: `${lines.length} workspaces:\n${lines.join("\n")}${fallback}`, json: json(list) };
    },
  }),
  defineTool({
    name: "workspace_members",
    description: "A workspace's members (any member may read them): user id, username, role, when they joined.",
    input: v.object({ workspace: WorkspaceRef(`${IN_WORKSPACE}. Default: the one chosen with aisc workspace use, else the personal one`) }),
    async run(api, { workspace }, context) {
      const chosen = await currentOrPersonal(context, api, workspace);
      const list = await withRole(chosen, api.listMembers(chosen.id));
      const lines = list.members.map((m) => `- ${m.userId} · ${visibleText(m.username)} · ${m.role} · joined ${when(m.joinedAt)} UTC`);
      return {
        summary: `${visibleText(chosen.name)} has ${lines.length} ${lines.length === 1 ? "member" : "members"}:\n${lines.join("\n")}`,
        json: json(list),
      };
    },
  }),
  defineTool({
    name: "workspace_audit",
    description:
      "A workspace's audit log (admins and owners), newest first: who did what and when, from a browser session or which API token: trackers created, edited (which fields), paused, resumed, run and deleted, webhooks set, links shared and revoked, members invited, joined, changed, removed and left.",
    input: v.object({
      workspace: WorkspaceRef(`${IN_WORKSPACE}. Default: the one chosen with aisc workspace use, else the personal one`),
      limit: v.optional(
        said(
          v.pipe(v.number(), v.integer(), v.minValue(1, `limit must be at least 1`), v.maxValue(MAX_AUDIT_PAGE, `limit must be at most ${MAX_AUDIT_PAGE}`)),
          `How many entries (1–${MAX_AUDIT_PAGE}, default 50)`,
        ),
      ),
      before: v.optional(
        said(v.pipe(v.number(), v.integer(), v.minValue(1, "before must be an entry id")), "Entries older than this one (the previous answer's nextBefore)"),
      ),
    }),
    async run(api, { workspace, limit, before }, context) {
      const chosen = await currentOrPersonal(context, api, workspace);
      const page = await withRole(chosen, api.getWorkspaceAudit(chosen.id, { limit, before }));
      const lines = page.entries.map(
        (e) =>
          `- ${when(e.at)} UTC · ${visibleText(e.actor.username)} (${e.token ? `token ${e.token.prefix}…` : e.via}) · ${e.action} · ${visibleText(e.target)}` +
          `${Object.keys(e.details).length ? ` · ${visibleText(JSON.stringify(e.details))}` : ""}`,
      );
      const more = page.nextBefore === undefined ? "" : `\nOlder entries: before ${page.nextBefore}.`;
      return {
        summary: lines.length
          ? `${visibleText(chosen.name)}'s audit log, newest first:\n${lines.join("\n")}${more}`
          : `Nothing in ${visibleText(chosen.name)}'s audit log yet.`,
        json: json(page),
      };
    },
  }),
];
