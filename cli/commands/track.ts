import { readFileSync } from "node:fs";
import * as v from "valibot";
import type { ApiClient } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { providerIds } from "#src/contract/providers.ts";
import { CreateTracker, DetectabilityQuery, type Tracker, UpdateTracker, webhookFormats } from "#src/contract/trackers.ts";
import { SummaryQuery, summaryPeriods } from "#src/contract/summary.ts";
import { TrendQuery } from "#src/contract/trend.ts";
import { reportCadences, type ReportSettings, UpdateReport } from "#src/contract/reports.ts";
import { visibleText } from "#src/core/display-text.ts";
import { UTF8_BOM } from "#src/core/export.ts";
import { trendToCsv } from "#src/core/trend-export.ts";
import { parseQuestionCsv } from "#src/core/question-csv.ts";
import { WEBHOOK_VERIFY_WORDS, webhookTestInWords } from "#src/core/webhooks.ts";
import { parseTimeOfDay, parseWeekday, presetCron } from "#src/core/schedule.ts";
import { formatInZone } from "#src/core/tracker-timing.ts";
import { action, defineCommand, Flag, NoOptions, parseOptions, repeatable } from "#cli/lib/command.ts";
import { signedIn, type Context } from "#cli/lib/context.ts";
import { CliError, EXIT } from "#cli/lib/exit.ts";
import { locationOf } from "#cli/lib/location.ts";
import { note, print, printJson } from "#cli/lib/output.ts";
import { startProgress } from "#cli/lib/progress.ts";
import { confirmDeletion } from "#cli/lib/prompt.ts";
import { followRun, latestResults, RUN_EXIT, runLine, runResultsTable, runsTable, trackersTable, trackerText, when } from "#cli/lib/trackers.ts";
import { noPointsText, simulatedFlags, simulatedFlagsOf, trendTables } from "#cli/lib/trend.ts";
import { alertProviders, alertsText, NO_ALERTS } from "#cli/lib/alerts.ts";
import { summaryText } from "#cli/lib/summary.ts";
import { checkTrackerIn, currentWorkspace, withRole, workspaceNames } from "#cli/lib/workspaces.ts";

/*
 * `aisc track`: trackers (Pro), a set of questions asked on a schedule. Each
 * subcommand is one call of the API client; `--json` prints its answer.
 */

const Strings = v.optional(v.array(v.string()), []);
// A number flag as the API takes it: the contract says what is wrong with it.
const NumberFlag = v.optional(v.pipe(v.string(), v.transform(Number)));

const CreateOptions = v.object({
  name: v.string(),
  query: Strings,
  queryFile: v.optional(v.string()),
  brand: v.string(),
  alias: Strings,
  domain: Strings,
  competitor: Strings,
  provider: v.optional(v.array(v.string())),
  iterations: NumberFlag,
  country: v.optional(v.string()),
  region: v.optional(v.string()),
  city: v.optional(v.string()),
  daily: v.optional(v.string()),
  weekly: v.optional(v.string()),
  cron: v.optional(v.string()),
  timezone: v.optional(v.string()),
  budget: NumberFlag,
  webhook: v.optional(v.string()),
  webhookFormat: v.optional(v.string()),
});
type CreateOptions = v.InferOutput<typeof CreateOptions>;

const create = defineCommand("create", "create a tracker (Pro): questions asked of the providers on a schedule, your brand's mentions counted each run")
  .requiredOption("--name <text>", "what to call it")
  .option("--query <text>", "a question to ask (repeat it; up to 50)", repeatable)
  .option(
    "--query-file <path>",
    "questions from a file, one a line (blank lines and lines starting with # are skipped); a .csv file is question[,tag] rows, a header row skipped, each tag a trend of its own",
  )
  .requiredOption("--brand <name>", "your brand, as the answers would name it")
  .option("--alias <name>", "another name of your brand (repeat it)", repeatable)
  .option("--domain <host>", "a domain of your brand's own, e.g. example.com (repeat it)", repeatable)
  .option("--competitor <name>", "a competitor to count too (repeat it; up to 10)", repeatable)
  .option("--provider <id>", `a provider to ask: ${providerIds.join(", ")} (repeat it; default: every connected one)`, repeatable)
  .option("-n, --iterations <n>", "times each provider is asked each question per run (1–100, default 5)")
  .option("--country <code>", "ask from this country (ISO 3166-1 code, e.g. DE)")
  .option("--region <name>", "with --country: the region, state or province")
  .option("--city <name>", "with --country: the city")
  .option("--daily <HH:MM>", "run every day at this time")
  .option("--weekly <day@HH:MM>", "run every week on this day at this time, e.g. mon@09:00")
  .option("--cron <expression>", 'run on this 5-field cron, e.g. "0 9 * * 1-5"')
  .option("--timezone <zone>", "the schedule's IANA time zone (default: this machine's, e.g. Europe/Berlin)")
  .option("--budget <usd>", "the tracker's own spending cap per calendar month, in US dollars")
  .option("--webhook <url>", "post its runs, alerts and missed runs to this URL (the signing secret is printed once)")
  .option("--webhook-format <format>", `with --webhook: ${webhookFormats.join(" (default) or ")} (a Slack or Discord incoming webhook)`)
  .action(
    action(CreateOptions, async ({ context, options }) => {
      const api = signedIn(context);
      const workspace = await currentWorkspace(context, api);
      const request = parseOptions(CreateTracker, { ...trackerRequest(options), ...(workspace ? { workspaceId: workspace.id } : {}) }, flagOfField);
      const tracker = await withRole(workspace, api.createTracker(request));
      if (context.json) return printJson(tracker);
      print(
        `Created ${visibleText(tracker.name)} (${tracker.id}): ${tracker.scheduleText}, next run ${tracker.nextRunAt ? `${when(tracker.nextRunAt)} UTC` : "—"}.`,
      );
      if (tracker.detectability) print(`What it can see: ${tracker.detectability.sentence}`);
      printSecret(tracker);
      note(context.quiet, `Run it now: aisc track run ${tracker.id} --wait`);
    }),
  );

// The flags as given; the contract's DetectabilityQuery checks them (--questions: questions must be …).
const EstimateOptions = v.object({
  questions: v.optional(v.string()),
  iterations: v.optional(v.string()),
  providers: v.optional(v.string()),
  competitors: v.optional(v.string()),
});

const estimate = defineCommand(
  "estimate",
  "what change a tracker of this shape could tell, before you create it (Pro): the fall of your brand's mention rate its alerts would tell within 2 runs, simulated with answers varying from run to run",
)
  .requiredOption("--questions <n>", "how many questions it would ask (1–50)")
  .requiredOption("-n, --iterations <n>", "times each provider would be asked each question per run (1–100)")
  .option("--providers <n>", "how many providers it would ask (default: every one connected to the server)")
  .option("--competitors <n>", "how many competitors it would count (0–10, default 0)")
  .action(
    action(EstimateOptions, async ({ context, options }) => {
      const shape = parseOptions(DetectabilityQuery, options);
      // A shape the server has not seen takes it a few seconds to simulate.
      const progress = startProgress("Working out what it can see…", context);
      const found = await signedIn(context)
        .estimateTracker(shape)
        .finally(() => progress.succeed());
      if (context.json) return printJson(found);
      print(found.sentence);
    }),
  );

const list = defineCommand(
  "list",
  "list the trackers of the current workspace (of every workspace of yours when none is chosen): schedule, last run and its status, next run",
).action(
  action(NoOptions, async ({ context }) => {
    const api = signedIn(context);
    const workspace = await currentWorkspace(context, api);
    const { trackers } = await api.listTrackers(workspace ? { workspaceId: workspace.id } : {});
    if (context.json) return printJson({ trackers });
    if (trackers.length === 0)
      return print(
        `No trackers ${workspace ? `in ${visibleText(workspace.name)} ` : ""}yet: aisc track create --name … --query "…" --brand … --weekly mon@09:00`,
      );
    // Without a workspace chosen, each tracker says which of yours it is in, when you have more than one.
    const names = workspace ? undefined : await workspaceNames(api);
    print(trackersTable(trackers, names && names.size > 1 ? names : undefined));
  }),
);

/** The client for a command on one tracker: a --workspace given is checked to be the tracker's. */
async function trackerApi(context: Context, id: string): Promise<ApiClient> {
  const api = signedIn(context);
  await checkTrackerIn(context, api, id);
  return api;
}

const RUNS_SHOWN = 10;

// The flags as given; the contract's SummaryQuery checks them (--period: period must be one of …).
const ShowOptions = v.object({ period: v.optional(v.string()), from: v.optional(v.string()), to: v.optional(v.string()) });

const show = defineCommand("show", "a tracker: its headline (the last 7 days unless told), what it asks, when, and its latest runs with the latest results")
  .argument("<id>", "the tracker's id (aisc track list)")
  .option("--period <name>", `the headline's period: ${summaryPeriods.join(", ")} (run: the newest run against the one before; default 7d)`)
  .option("--from <date>", "the headline from this day (YYYY-MM-DD, UTC) or ISO timestamp on")
  .option("--to <date>", "the headline up to this day (YYYY-MM-DD, UTC) or ISO timestamp")
  .action(
    action<typeof ShowOptions, [string]>(ShowOptions, async ({ context, options, args: [id] }) => {
      const period = parseOptions(SummaryQuery, options);
      const api = await trackerApi(context, id);
      const tracker = await api.getTracker(id);
      const [{ runs }, summary] = await Promise.all([api.listTrackerRuns(id, { limit: RUNS_SHOWN }), api.getTrackerSummary(id, period)]);
      if (context.json) return printJson({ tracker, summary, runs });
      print(`${summaryText(summary)}\n`);
      print(trackerText(tracker));
      if (runs.length === 0) return print(`\nNo runs yet: aisc track run ${id}`);
      print(`\nLatest runs:\n${runsTable(runs)}`);
      const results = await latestResults(api, runs);
      if (results) print(`\nResults of run ${results.id} (${when(results.scheduledFor)} UTC):\n${runResultsTable(results, tracker.brand.name)}`);
    }),
  );

// The flags as given; the contract's TrendQuery checks them, its messages after the flag (--metric: metric must be one of …).
const TrendOptions = v.object({
  metric: v.optional(v.string()),
  query: v.optional(v.string()),
  tag: v.optional(v.string()),
  provider: v.optional(v.string()),
  subject: v.optional(v.string()),
  from: v.optional(v.string()),
  to: v.optional(v.string()),
  csv: Flag,
});

const trend = defineCommand(
  "trend",
  "a tracker's trend: per provider, each run's rate for your brand and its competitors with n and its 95% band (for the tracker's rate, widened by how much the provider's runs vary), and a sparkline",
)
  .argument("<id>", "the tracker's id (aisc track list)")
  .option("--metric <name>", "mention (default), sov (share of voice), citation (own domains cited) or position (mean position among the products)")
  .option("--query <text>", "one of the tracker's queries (default: each run over all of them)")
  .option("--tag <tag>", "each run over the questions carrying this tag, pooled (the tags are set with --query-file questions.csv)")
  .option("--provider <id>", `only this provider: ${providerIds.join(", ")}`)
  .option("--subject <name>", "only your brand or this competitor")
  .option("--from <date>", "runs from this day (YYYY-MM-DD, UTC) or ISO timestamp on")
  .option("--to <date>", "runs up to this day (YYYY-MM-DD, UTC, included) or ISO timestamp")
  .option("--csv", "print the points as CSV (a row per run, provider and subject) instead of tables")
  .action(
    action<typeof TrendOptions, [string]>(TrendOptions, async ({ context, options: { csv, ...flags }, args: [id] }) => {
      if (context.json && csv) throw new CliError("usage", "choose --json or --csv, not both");
      const query = parseOptions(TrendQuery, flags);
      const api = await trackerApi(context, id);
      const answer = await api.getTrackerTrend(id, query);
      if (context.json) return printJson(answer);
      // With the byte-order mark, as every CSV the CLI writes (Excel reads it as UTF-8).
      if (csv) {
        process.stdout.write(UTF8_BOM + trendToCsv(answer));
        return;
      }
      if (answer.points.length === 0) return print(noPointsText(query, ` Run it now: aisc track run ${id}`));
      print(trendTables(answer, await simulatedFlags(api, answer)));
    }),
  );

const alerts = defineCommand(
  "alerts",
  "a tracker's alerts, newest first: a rate that moved beyond how much the tracker's runs vary (both windows with band and n, p and q, the runs' spread and baseline it was counted with) and the answers behind it, or a model or search tool change",
)
  .argument("<id>", "the tracker's id (aisc track list)")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [id] }) => {
      const api = await trackerApi(context, id);
      const answer = await api.listTrackerAlerts(id);
      if (context.json) return printJson(answer);
      if (answer.alerts.length === 0) return print(NO_ALERTS);
      print(alertsText(answer.alerts, await simulatedFlagsOf(api, alertProviders(answer.alerts)), context.server));
    }),
  );

const RunOptions = v.object({ wait: Flag });

const run = defineCommand("run", "run a tracker now; --wait follows the run to its end (its exit code says how it ended)")
  .argument("<id>", "the tracker's id (aisc track list)")
  .option("--wait", "follow the run until it ends, progress on stderr; exits 0 completed, 6 partial, 4 failed, 3 skipped")
  .action(
    action<typeof RunOptions, [string]>(RunOptions, async ({ context, options, args: [id] }) => {
      const api = await trackerApi(context, id);
      const { run: started } = await api.runTracker(id).catch((error: unknown) => {
        throw alreadyRunning(error, id);
      });
      if (!options.wait) {
        if (context.json) return printJson({ run: started });
        print(`Run ${started.id} queued.`);
        return note(context.quiet, `Follow it: aisc track show ${id} (or run with --wait)`);
      }
      const ended = await followRun(api, started, startProgress(runLine(started), context));
      if (context.json) printJson(ended);
      else if (ended.queries.length) print(runResultsTable(ended, (await api.getTracker(id)).brand.name));
      const reason = RUN_EXIT[ended.status as keyof typeof RUN_EXIT];
      if (reason !== "ok") process.stderr.write(`${runLine(ended)}\n`);
      process.exitCode = EXIT[reason];
    }),
  );

/** `pause` and `resume`: the one PATCH with `paused`. */
const pauseCommand = (paused: boolean) =>
  defineCommand(paused ? "pause" : "resume", paused ? "pause a tracker: no scheduled runs until it is resumed" : "resume a paused tracker")
    .argument("<id>", "the tracker's id (aisc track list)")
    .action(
      action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [id] }) => {
        const tracker = await (await trackerApi(context, id)).updateTracker(id, { paused });
        if (context.json) return printJson(tracker);
        const next = !paused && tracker.nextRunAt ? `: next run ${when(tracker.nextRunAt)} UTC` : "";
        print(`${paused ? "Paused" : "Resumed"} ${visibleText(tracker.name)} (${tracker.id})${next}.`);
      }),
    );

// --webhook <url> and --no-webhook are one option: the URL, or false to remove it.
const UpdateOptions = v.object({
  webhook: v.optional(v.union([v.string(), v.literal(false)])),
  webhookFormat: v.optional(v.string()),
  rotateSecret: Flag,
});

const update = defineCommand(
  "update",
  "change a tracker's webhook (the web's Edit form changes the rest): set or move it, change its format, rotate its secret, or remove it",
)
  .argument("<id>", "the tracker's id (aisc track list)")
  .option("--webhook <url>", "post its runs, alerts and missed runs to this URL")
  .option("--no-webhook", "remove its webhook")
  .option("--webhook-format <format>", `${webhookFormats.join(" or ")} (default: as it is, else json)`)
  .option("--rotate-secret", "make a new signing secret (printed once); the old one stops signing at once")
  .action(
    action<typeof UpdateOptions, [string]>(UpdateOptions, async ({ context, options, args: [id] }) => {
      const api = await trackerApi(context, id);
      const change = parseOptions(UpdateTracker, { webhook: await webhookChange(options, () => api.getTracker(id)) }, webhookFlag);
      const tracker = await api.updateTracker(id, change);
      if (context.json) return printJson(tracker);
      print(
        tracker.webhook
          ? `${visibleText(tracker.name)} (${tracker.id}) posts to ${tracker.webhook.url} (${tracker.webhook.format}).`
          : `${visibleText(tracker.name)} (${tracker.id}) has no webhook.`,
      );
      printSecret(tracker);
    }),
  );

const webhookTest = defineCommand("webhook-test", "post a test message to a tracker's webhook now and say whether it was delivered (exits 0 if so, 4 if not)")
  .argument("<id>", "the tracker's id (aisc track list)")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [id] }) => {
      const result = await (await trackerApi(context, id)).testTrackerWebhook(id);
      if (context.json) printJson(result);
      else print(webhookTestInWords(result));
      if (!result.delivered) process.exitCode = EXIT.server;
    }),
  );

const ReportOptions = v.object({
  cadence: v.optional(v.picklist(reportCadences, `--cadence must be one of ${reportCadences.join(", ")}`)),
  add: Strings,
  remove: Strings,
  newLink: Flag,
  test: Flag,
});

const report = defineCommand(
  "report",
  "a tracker's report by e-mail: print its cadence and recipients; --cadence, --add and --remove change them (a new recipient is sent a confirmation link first); --new-link makes recipients a new share link after you revoked theirs; --test sends it now to your own confirmed address",
)
  .argument("<id>", "the tracker's id (aisc track list)")
  .option("--cadence <cadence>", `how often: ${reportCadences.join(", ")}`)
  .option("--add <email>", "a recipient to add (repeat it)", repeatable)
  .option("--remove <email>", "a recipient to remove (repeat it)", repeatable)
  .option("--new-link", "a new share link for recipients' reports, after you revoked theirs")
  .option("--test", "send the report now to your own confirmed address only")
  .action(
    action<typeof ReportOptions, [string]>(ReportOptions, async ({ context, options, args: [id] }) => {
      const api = await trackerApi(context, id);
      let settings = await api.getTrackerReport(id);
      if (options.cadence || options.add.length > 0 || options.remove.length > 0) {
        const removed = new Set(options.remove.map((email) => email.trim().toLowerCase()));
        const kept = settings.recipients.map((r) => r.email).filter((email) => !removed.has(email));
        const recipients = [...kept, ...options.add.map((email) => email.trim().toLowerCase()).filter((email) => !kept.includes(email))];
        settings = await api.setTrackerReport(id, parseOptions(UpdateReport, { cadence: options.cadence ?? settings.cadence, recipients }, reportFlag));
      }
      if (options.newLink) settings = await api.newTrackerReportLink(id);
      const tested = options.test ? await api.testTrackerReport(id) : undefined;
      // A test not sent exits 4, as webhook-test does, with --json too.
      if (tested && tested.outcome !== "sent") process.exitCode = EXIT.server;
      if (context.json) return printJson(tested ? { ...settings, test: tested } : settings);
      print(reportText(settings));
      if (tested) print(tested.message);
    }),
  );

/** The report's settings in lines: the cadence, then each recipient with their status. */
function reportText(settings: ReportSettings): string {
  const lines = [
    settings.emailConfigured
      ? `Report: ${settings.cadence}${settings.nextAt ? ` (next: ${formatInZone(settings.nextAt, settings.timezone)})` : ""}.`
      : "E-mail is not configured on this server: set SMTP_URL and PUBLIC_URL to send reports.",
  ];
  if (settings.recipients.length === 0) lines.push("No recipients.");
  for (const recipient of settings.recipients) lines.push(`  ${recipient.email}  ${recipient.status}`);
  if (settings.shareUrl) lines.push(`Recipients' reports link to ${settings.shareUrl}`);
  if (settings.shareRevoked) lines.push("You revoked the link recipients' reports linked to: later reports go without one (--new-link makes another).");
  return lines.join("\n");
}

function reportFlag(path: string[]): string {
  return path[0] === "recipients" ? "--add" : `--${path[0] ?? "cadence"}`;
}

// Both flags are the one option: absent, the API's default (kept).
const DeleteOptions = v.object({ yes: Flag, keepSearches: v.optional(v.boolean()) });

const remove = defineCommand(
  "delete",
  "delete a tracker and its runs (asks first on a terminal; --yes for scripts); its saved searches stay in your history unless --no-keep-searches",
)
  .argument("<id>", "the tracker's id (aisc track list)")
  .option("-y, --yes", "do not ask")
  .option("--keep-searches", "keep its saved searches in your history, as your own searches (the default)")
  .option("--no-keep-searches", "delete its saved searches with it")
  .action(
    action<typeof DeleteOptions, [string]>(DeleteOptions, async ({ context, options, args: [id] }) => {
      const api = await trackerApi(context, id);
      const keepSearches = options.keepSearches ?? true;
      const question = async () => {
        const tracker = await api.getTracker(id);
        const searches = `${tracker.savedSearches} saved ${tracker.savedSearches === 1 ? "search" : "searches"}`;
        return `Delete the tracker "${visibleText(tracker.name)}" (${id}) and its runs${keepSearches ? ` (its ${searches} stay in your history)` : `, with its ${searches}`}?`;
      };
      if (!(await confirmDeletion(options.yes, "a tracker", question))) return note(context.quiet, "Nothing deleted.");
      const deleted = await api.deleteTracker(id, { keepSearches: keepSearches ? "true" : "false" });
      if (context.json) return printJson(deleted);
      print(keepSearches ? `Deleted ${id}; its saved searches stay in your history.` : `Deleted ${id} and its saved searches.`);
    }),
  );

export const track = defineCommand("track", "trackers (Pro): questions asked on a schedule, your brand's mention rate per provider each run")
  .addCommand(list)
  .addCommand(create)
  .addCommand(update)
  .addCommand(webhookTest)
  .addCommand(report)
  .addCommand(estimate)
  .addCommand(show)
  .addCommand(trend)
  .addCommand(alerts)
  .addCommand(run)
  .addCommand(pauseCommand(true))
  .addCommand(pauseCommand(false))
  .addCommand(remove);

/** The API's request from the flags; the contract checks it (parseOptions with flagOfField). */
function trackerRequest(options: CreateOptions): v.InferInput<typeof CreateTracker> {
  const file = options.queryFile ? queriesIn(options.queryFile) : { queries: [], questionTags: {} };
  const queries = [...options.query, ...file.queries];
  if (queries.length === 0) throw new CliError("usage", "give the questions: --query (repeat it) or --query-file");
  const location = locationOf({ country: options.country, region: options.region, city: options.city }, "--region and --city");
  return {
    name: options.name,
    queries,
    brand: { name: options.brand, aliases: options.alias, domains: options.domain },
    competitors: options.competitor.map((name) => ({ name })),
    ...(options.provider ? { providers: options.provider as v.InferInput<typeof CreateTracker>["providers"] } : {}),
    ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
    ...(location ? { location } : {}),
    schedule: { cron: cronOf(options), timezone: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone },
    ...(options.budget === undefined ? {} : { monthlyBudgetUsd: options.budget }),
    ...webhookOf(options),
    ...(Object.keys(file.questionTags).length > 0 ? { questionTags: file.questionTags } : {}),
  };
}

/** --webhook and --webhook-format as the request's `webhook`. */
function webhookOf({ webhook, webhookFormat }: CreateOptions): Pick<v.InferInput<typeof CreateTracker>, "webhook"> {
  if (webhook === undefined) {
    if (webhookFormat !== undefined) throw new CliError("usage", "--webhook-format goes with --webhook <url>");
    return {};
  }
  return { webhook: { url: webhook, ...(webhookFormat === undefined ? {} : { format: webhookFormat as "json" }) } };
}

/**
 * The PATCH's `webhook` from update's flags: null to remove it; a new URL or format, or a rotation,
 * on top of the tracker's webhook as it is (read only when the flags do not say it all).
 */
async function webhookChange(
  { webhook, webhookFormat, rotateSecret }: v.InferOutput<typeof UpdateOptions>,
  current: () => Promise<Tracker>,
): Promise<v.InferInput<typeof UpdateTracker>["webhook"]> {
  if (webhook === false) {
    if (webhookFormat !== undefined || rotateSecret)
      throw new CliError("usage", "--no-webhook removes the webhook: leave out --webhook-format and --rotate-secret");
    return null;
  }
  if (webhook === undefined && webhookFormat === undefined && !rotateSecret)
    throw new CliError("usage", "say what to change: --webhook <url>, --no-webhook, --webhook-format or --rotate-secret");
  const saved = webhook === undefined || webhookFormat === undefined ? (await current()).webhook : undefined;
  const url = webhook ?? saved?.url;
  if (url === undefined) throw new CliError("usage", "this tracker has no webhook: give it one with --webhook <url>");
  return {
    url,
    format: (webhookFormat ?? saved?.format ?? "json") as "json",
    ...(rotateSecret ? { rotateSecret: true } : {}),
  };
}

/** The webhook's secret, when this answer carries it (it never will again), and how to check a delivery with it. */
function printSecret(tracker: Tracker): void {
  const secret = tracker.webhook?.secret;
  if (!secret) return;
  print(`Webhook secret (shown this once, keep it now): ${secret}`);
  print(WEBHOOK_VERIFY_WORDS);
}

/** The schedule's cron: one of the presets (as the web writes them) or --cron. */
function cronOf({ daily, weekly, cron }: CreateOptions): string {
  const given = [daily, weekly, cron].filter((flag) => flag !== undefined).length;
  if (given !== 1) throw new CliError("usage", 'say when it runs: one of --daily HH:MM, --weekly day@HH:MM or --cron "…"');
  if (daily !== undefined) {
    if (!parseTimeOfDay(daily)) throw new CliError("usage", `--daily: a time of day as HH:MM (24-hour), e.g. 09:00, not ${JSON.stringify(daily)}`);
    return presetCron({ kind: "daily", time: daily });
  }
  if (weekly !== undefined) {
    const [dayText = "", time = "", ...rest] = weekly.split("@");
    const day = parseWeekday(dayText);
    if (!day || !parseTimeOfDay(time) || rest.length)
      throw new CliError("usage", `--weekly: a day and a time of day as DAY@HH:MM, e.g. mon@09:00, not ${JSON.stringify(weekly)}`);
    return presetCron({ kind: "weekly", day, time });
  }
  return cron ?? "";
}

/** The questions in a file, one a line. */
function queriesIn(file: string): { queries: string[]; questionTags: Record<string, string> } {
  const text = readFileSync(file, "utf8");
  if (file.toLowerCase().endsWith(".csv")) {
    // The form's import reads it the same way; a blank row is skipped, a repeat is left for the contract to name.
    const rows = parseQuestionCsv(text).filter((row) => row.question !== "");
    return { queries: rows.map((row) => row.question), questionTags: Object.fromEntries(rows.flatMap((row) => (row.tag ? [[row.question, row.tag]] : []))) };
  }
  const queries = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  return { queries, questionTags: {} };
}

// The request's fields as the flags that set them, for the contract's messages ("--query: queries must not repeat a question").
const FLAGS: Array<[string, string]> = [
  ["name", "--name"],
  ["queries", "--query"],
  ["questionTags", "--query-file"],
  ["brand.aliases", "--alias"],
  ["brand.domains", "--domain"],
  ["brand", "--brand"],
  ["competitors", "--competitor"],
  ["providers", "--provider"],
  ["iterations", "--iterations"],
  ["location.region", "--region"],
  ["location.city", "--city"],
  ["location", "--country"],
  ["schedule.timezone", "--timezone"],
  ["schedule", "--cron"],
  ["monthlyBudgetUsd", "--budget"],
  ["webhook.format", "--webhook-format"],
  ["webhook", "--webhook"],
];

function webhookFlag(path: string[]): string | undefined {
  return path.join(".") === "webhook.format" ? "--webhook-format" : "--webhook";
}

function flagOfField(path: string[]): string | undefined {
  const field = path.filter((key) => !/^\d+$/.test(key)).join(".");
  return FLAGS.find(([prefix]) => field === prefix || field.startsWith(`${prefix}.`))?.[1];
}

/** Run now refused because a run is queued or running: which one, and how to follow it. */
function alreadyRunning(error: unknown, trackerId: string): unknown {
  if (!(error instanceof ApiError) || error.code !== "CONFLICT") return error;
  const runId = error.json?.id;
  const which = typeof runId === "string" && !(error.serverMessage ?? "").includes(runId) ? ` (run ${runId})` : "";
  return new CliError(
    "usage",
    `${error.serverMessage ?? "A run of this tracker is already queued or running"}${which}: follow it with aisc track show ${trackerId}`,
  );
}
