import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { PRO_REQUIRED } from "#src/contract/quota.ts";
import { ReportSettings, ReportTestResult, UpdateReport } from "#src/contract/reports.ts";
import { Tracker, TrackerList, TrackerRun, type CreateTracker } from "#src/contract/trackers.ts";
import { TrackerSummary } from "#src/contract/summary.ts";
import type { TrendPoint } from "#src/contract/trend.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { clientAs, createUser, runCli, spawnCli, trackerWithAFall, useCliServer, type CliServer } from "#tests/support/cli.ts";
import { linksIn, startSmtpSink } from "#tests/support/smtp.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * `aisc track …` against the real server (trackers run on its pg-boss, providers
 * simulated): what each command prints, what it changed on the server, and its exit code.
 */

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** A Pro user and the CLI's options as them. */
async function proUser(server: CliServer) {
  const user = await createUser(server, { pro: true });
  return { user, asUser: { server, env: { AISC_TOKEN: user.token, COLUMNS: "200" } } };
}

/** A tracker made through the API, as the web makes one. */
function trackerInput(overrides: Partial<v.InferInput<typeof CreateTracker>> = {}): v.InferInput<typeof CreateTracker> {
  return {
    name: "CRM watch",
    queries: ["best crm for a small agency"],
    brand: { name: "HubSpot" },
    iterations: 1,
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
    ...overrides,
  };
}

/** A trend point's figure as the table writes it, from the API's numbers. */
function figure(point: TrendPoint | undefined): string {
  if (!point || point.rate === null || point.low === null || point.high === null) return `— n=${point?.n}`;
  return `${point.rate.toFixed(1)}% (${point.low.toFixed(1)}–${point.high.toFixed(1)}) n=${point.n}`;
}

/** A table's row (its lines, from one rule to the next) that holds `text`. */
function rowOf(table: string, text: string): string {
  return table.split(/^[├└].*$/m).find((row) => row.includes(text)) ?? "";
}

describe("aisc track", () => {
  // Webhooks to the tests' loopback receivers.
  const getServer = useCliServer({ env: { WEBHOOK_ALLOW_PRIVATE: "1" } });

  test("--query-file reads a .csv as question[,tag] rows; track trend --tag pools a tag's questions, an unknown tag refused", async () => {
    const server = getServer();
    const { asUser } = await proUser(server);
    const csv = join(mkdtempSync(join(tmpdir(), "aisc-queries-")), "questions.csv");
    writeFileSync(csv, '\uFEFFquestion,tag\r\n"best crm, for startups",Startups\r\ncrm with a free plan,Pricing\r\ncrm for agencies\r\n');
    const made = await runCli(["track", "create", "--name", "Tagged", "--query-file", csv, "--brand", "HubSpot", "--daily", "09:00", "--json"], asUser);
    expect(made.code).toBe(EXIT.ok);
    const tracker = v.parse(Tracker, JSON.parse(made.stdout));
    expect(tracker.queries).toEqual(["best crm, for startups", "crm with a free plan", "crm for agencies"]);
    expect(tracker.questionTags).toEqual({ "best crm, for startups": "Startups", "crm with a free plan": "Pricing" });

    const none = await runCli(["track", "trend", tracker.id, "--tag", "Startups"], asUser);
    expect(none).toMatchObject({ code: EXIT.ok, stdout: expect.stringContaining("No runs with results match the filters (tag)") });
    const unknown = await runCli(["track", "trend", tracker.id, "--tag", "Enterprise"], asUser);
    expect(unknown.code).not.toBe(EXIT.ok);
    expect(unknown.stderr).toContain("Enterprise");
  });

  test("create writes each preset as its cron, in the given time zone, with everything the flags say", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const queryFile = join(mkdtempSync(join(tmpdir(), "aisc-queries-")), "queries.txt");
    writeFileSync(queryFile, "# the buyers' questions\nbest crm for a small agency\n\ncrm with email tracking\n");

    const daily = await runCli(
      ["track", "create", "--name", "Daily", "--query", "best crm", "--brand", "HubSpot", "--daily", "09:30", "--timezone", "Europe/Berlin"],
      asUser,
    );
    expect(daily).toMatchObject({ code: EXIT.ok, stderr: expect.stringContaining("aisc track run") });
    expect(daily.stdout).toContain("Every day at 09:30 (Europe/Berlin)");
    // What it can see, as the API says it: one question cannot tell a run's swing from a fall.
    expect(daily.stdout).toContain(
      `What it can see: With 1 question × 5 answers on ${providerIds.length} providers, not even a fall of your brand from 50% to 5%`,
    );

    const weekly = await runCli(
      [
        "track",
        "create",
        "--name",
        "Weekly",
        "--query-file",
        queryFile,
        "--query",
        "hubspot alternatives",
        "--brand",
        "HubSpot",
        "--alias",
        "Hubspot CRM",
        "--domain",
        "hubspot.com",
        "--competitor",
        "Salesforce",
        "--competitor",
        "Pipedrive",
        "--provider",
        "openai",
        "--provider",
        "gemini",
        "--iterations",
        "3",
        "--country",
        "de",
        "--city",
        "Berlin",
        "--weekly",
        "mon@09:00",
        "--timezone",
        "America/New_York",
        "--budget",
        "25",
        "--json",
      ],
      asUser,
    );
    expect(weekly.code).toBe(EXIT.ok);
    const created = v.parse(Tracker, JSON.parse(weekly.stdout));
    expect(created).toMatchObject({
      name: "Weekly",
      queries: ["hubspot alternatives", "best crm for a small agency", "crm with email tracking"],
      brand: { name: "HubSpot", aliases: ["Hubspot CRM"], domains: ["hubspot.com"] },
      competitors: [
        { name: "Salesforce", aliases: [], domains: [] },
        { name: "Pipedrive", aliases: [], domains: [] },
      ],
      providers: ["openai", "gemini"],
      iterations: 3,
      location: { country: "DE", city: "Berlin" },
      schedule: { cron: "0 9 * * 1", timezone: "America/New_York" },
      monthlyBudgetUsd: 25,
      paused: false,
      detectability: { questions: 3, iterations: 3, providers: 2, competitors: 2, from: 50, withinRuns: 2 },
    });

    // Before creating one: the same figure for a shape, in words and as the API's answer; a bad flag named.
    const estimated = await runCli(["track", "estimate", "--questions", "3", "--iterations", "3", "--providers", "2", "--competitors", "2", "--json"], asUser);
    expect(estimated.code).toBe(EXIT.ok);
    expect(JSON.parse(estimated.stdout)).toEqual(created.detectability);
    const words = await runCli(["track", "estimate", "--questions", "3", "--iterations", "3", "--providers", "2", "--competitors", "2"], asUser);
    expect(words).toMatchObject({ code: EXIT.ok, stdout: `${created.detectability!.sentence}\n` });
    const bad = await runCli(["track", "estimate", "--questions", "51", "--iterations", "3"], asUser);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain("--questions: questions must be a whole number from 1 to 50");

    const cron = await runCli(
      ["track", "create", "--name", "Weekdays", "--query", "best crm", "--brand", "HubSpot", "--cron", "15 6 * * 1-5", "--timezone", "UTC", "--json"],
      asUser,
    );
    expect(cron.code).toBe(EXIT.ok);

    // What the server keeps, read through the API as the web reads it.
    const { trackers } = await user.browser.api.listTrackers();
    const schedules = Object.fromEntries(trackers.map((tracker) => [tracker.name, tracker.schedule]));
    expect(schedules).toEqual({
      Daily: { cron: "30 9 * * *", timezone: "Europe/Berlin" },
      Weekly: { cron: "0 9 * * 1", timezone: "America/New_York" },
      Weekdays: { cron: "15 6 * * 1-5", timezone: "UTC" },
    });
  });

  test("list shows each tracker's schedule in words, last run and next run; --json is the API's list", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const empty = await runCli(["track", "list"], asUser);
    expect(empty).toMatchObject({ code: EXIT.ok, stdout: expect.stringContaining("No trackers yet") });
    const weekly = await user.browser.api.createTracker(trackerInput({ name: "CRM weekly" }));
    const daily = await user.browser.api.createTracker(trackerInput({ name: "CRM daily", schedule: { cron: "0 7 * * *", timezone: "Europe/Berlin" } }));

    const listed = await runCli(["track", "list"], asUser);
    expect(listed.code).toBe(EXIT.ok);
    for (const tracker of [weekly, daily]) {
      const row = rowOf(listed.stdout, tracker.id);
      expect(row).toContain(tracker.name);
      expect(row).toContain(tracker.scheduleText);
      expect(row).toContain("never run");
      expect(row).toContain(`next ${tracker.nextRunAt?.slice(0, 16).replace("T", " ") ?? "no next run"}`);
    }
    expect(listed.stdout).toContain("Every Monday at 09:00 (UTC)");
    expect(listed.stdout).toContain("Every day at 07:00 (Europe/Berlin)");

    // After a run: its time and status. The table fits 80 columns (COLUMNS unset, stdout a pipe).
    const { run } = await user.browser.api.runTracker(weekly.id);
    await waitFor(async () => (await user.browser.api.getTrackerRun(weekly.id, run.id)).status === "completed", {
      what: "the run to complete",
      timeoutMs: 60_000,
    });
    const narrow = await runCli(["track", "list"], { server, env: { AISC_TOKEN: user.token } });
    expect(narrow.stdout.split("\n").every((line) => Bun.stringWidth(line) <= 80)).toBe(true);
    const row = rowOf(narrow.stdout, weekly.id);
    const ended = await user.browser.api.getTrackerRun(weekly.id, run.id);
    expect(row).toContain("last completed");
    expect(row).toContain(ended.finishedAt!.slice(0, 16).replace("T", " "));

    const json = v.parse(TrackerList, JSON.parse((await runCli(["track", "list", "--json"], asUser)).stdout));
    expect(json.trackers.map((tracker) => tracker.id).sort()).toEqual([weekly.id, daily.id].sort());
  });

  test("run --wait follows the run to its end: per query the brand's mention rate per provider and the saved search; show lists the run", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput({ queries: ["best crm for a small agency", "best crm for startups"], iterations: 2 }));

    const json = await runCli(["track", "run", tracker.id, "--wait", "--json"], asUser);
    expect(json.code).toBe(EXIT.ok);
    const run = v.parse(TrackerRun, JSON.parse(json.stdout));
    expect(run).toMatchObject({ trackerId: tracker.id, status: "completed", trigger: "manual" });
    const expected = tracker.queries.length * tracker.providers.length * tracker.iterations;
    expect(run.answers).toEqual({ expected, done: expected, failed: 0 });
    expect(run.queries.map((query) => query.query)).toEqual(tracker.queries);
    for (const query of run.queries) {
      expect(Object.keys(query.brandMentions ?? {}).sort()).toEqual([...tracker.providers].sort());
      // Each query's answers are a saved search in the history.
      const saved = await user.browser.api.getSearch(query.searchId ?? "none");
      expect(saved.query).toBe(query.query);
    }

    const table = await runCli(["track", "run", tracker.id, "--wait"], asUser);
    expect(table.code).toBe(EXIT.ok);
    expect(table.stdout).toContain("names HubSpot");
    for (const id of tracker.providers) expect(table.stdout).toContain(providerCatalogue[id].model);
    expect(table.stdout).toContain("best crm for startups");

    const shown = await runCli(["track", "show", tracker.id], asUser);
    expect(shown.code).toBe(EXIT.ok);
    // The headline first: its sentence, then per provider the brand's rate ±, rank, share of voice and change.
    const headline = await user.browser.api.getTrackerSummary(tracker.id);
    expect(shown.stdout.split("\n")[0]).toBe(headline.sentence);
    expect(shown.stdout).toContain("All providers");
    expect(shown.stdout.indexOf("All providers")).toBeLessThan(shown.stdout.indexOf(`CRM watch (${tracker.id})`));
    expect(shown.stdout).toContain(`CRM watch (${tracker.id})`);
    expect(shown.stdout).toContain("Every Monday at 09:00 (UTC)");
    expect(shown.stdout).toContain("Latest runs:");
    expect(shown.stdout).toContain(run.id);
    expect(shown.stdout).toContain(`${expected}/${expected}`);
    expect(shown.stdout).toContain("Results of run");
    const document = JSON.parse((await runCli(["track", "show", tracker.id, "--json"], asUser)).stdout) as {
      tracker: unknown;
      summary: unknown;
      runs: unknown[];
    };
    expect(v.parse(Tracker, document.tracker).id).toBe(tracker.id);
    expect(v.parse(TrackerSummary, document.summary).sentence).toBe(headline.sentence);
    expect(document.runs.map((item) => v.parse(TrackerRun, item).id)).toContain(run.id);

    // Another period: the newest run against the one before, as the API tells it; a period it does not know is a usage error.
    const newest = await runCli(["track", "show", tracker.id, "--period", "run"], asUser);
    expect(newest.stdout.split("\n")[0]).toBe((await user.browser.api.getTrackerSummary(tracker.id, { period: "run" })).sentence);
    expect(newest.stdout.split("\n")[0]).toContain("the run before");
    const unknown = await runCli(["track", "show", tracker.id, "--period", "quarter"], asUser);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain("--period: period must be one of run, 7d, 30d");
  });

  test("trend prints per provider a row per run with the API's figures, simulated providers said so, and a sparkline of one character per run; --json is the API's answer", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(
      trackerInput({ competitors: [{ name: "Salesforce" }], providers: ["openai", "anthropic"], iterations: 3 }),
    );
    const empty = await runCli(["track", "trend", tracker.id], asUser);
    expect(empty).toMatchObject({ code: EXIT.ok, stdout: `No runs with results yet. Run it now: aisc track run ${tracker.id}\n` });

    for (let i = 0; i < 2; i++) {
      const { run } = await user.browser.api.runTracker(tracker.id);
      await waitFor(async () => (await user.browser.api.getTrackerRun(tracker.id, run.id)).status === "completed", {
        what: "the run to complete",
        timeoutMs: 60_000,
      });
    }
    const trend = await user.browser.api.getTrackerTrend(tracker.id);
    const shown = await runCli(["track", "trend", tracker.id], asUser);
    expect(shown.code).toBe(EXIT.ok);
    // The keyless server's answers are simulated: said once, and at each provider's table.
    expect(shown.stdout).toContain("Simulated (invented answers, not the live provider): ChatGPT, Claude");
    expect(shown.stdout).not.toContain("Gemini");
    const sections = shown.stdout.split(/^(ChatGPT|Claude) \(simulated\):$/m);
    for (const [id, name] of [
      ["openai", "ChatGPT"],
      ["anthropic", "Claude"],
    ] as const) {
      const section = sections[sections.indexOf(name) + 1] ?? "";
      const points = trend.points.filter((point) => point.provider === id);
      const runIds = [...new Set(points.map((point) => point.runId))];
      expect(runIds).toHaveLength(2);
      // A row per run, oldest first: its time, then the brand's figure and the competitor's, as the API has them.
      const rows = section
        .split("\n")
        .filter((line) => line.startsWith("│"))
        .slice(1);
      expect(rows).toHaveLength(runIds.length);
      runIds.forEach((runId, i) => {
        const of = (subject: string) => points.find((point) => point.runId === runId && point.subject === subject);
        const cells = rows[i]
          ?.split("│")
          .map((cell) => cell.trim())
          .filter(Boolean);
        expect(cells).toEqual([of("HubSpot")?.at.slice(0, 16).replace("T", " ") ?? "no point", figure(of("HubSpot")), figure(of("Salesforce"))]);
      });
      const [, line] = /^HubSpot over the runs \(0–100%\): (.*)$/m.exec(section) ?? [];
      expect([...(line ?? "")]).toHaveLength(runIds.length);
      expect(line).toMatch(/^[▁▂▃▄▅▆▇█]+$/);
    }

    const json = await runCli(["track", "trend", tracker.id, "--json"], asUser);
    expect(JSON.parse(json.stdout)).toEqual(trend);
    const narrowed = await runCli(
      ["track", "trend", tracker.id, "--json", "--metric", "position", "--provider", "anthropic", "--subject", "salesforce"],
      asUser,
    );
    expect(JSON.parse(narrowed.stdout)).toEqual(
      await user.browser.api.getTrackerTrend(tracker.id, { metric: "position", provider: "anthropic", subject: "salesforce" }),
    );

    // Position is a mean, not a percent.
    const positions = await runCli(["track", "trend", tracker.id, "--metric", "position"], asUser);
    expect(positions.stdout).toContain("Mean position among the products (1 = first)");
    expect(positions.stdout).not.toContain("%)");
    const none = await runCli(["track", "trend", tracker.id, "--from", "2020-01-01", "--to", "2020-01-31"], asUser);
    expect(none).toMatchObject({ code: EXIT.ok, stdout: "No runs with results match the filters (from, to).\n" });

    for (const [flags, message] of [
      [["--metric", "rank"], "--metric: metric must be one of mention, sov, citation, position"],
      [["--provider", "bing"], "--provider: "],
      [["--from", "last week"], "--from: from must be a date (YYYY-MM-DD) or an ISO timestamp"],
      [["--from", "2026-02-01", "--to", "2026-01-01"], "--from: from must not be after to"],
    ] as const) {
      const refused = await runCli(["track", "trend", tracker.id, ...flags], asUser);
      expect({ flags, code: refused.code, stderr: refused.stderr }).toEqual({ flags, code: EXIT.usage, stderr: expect.stringContaining(message) });
    }
  });

  test("alerts: none said in a sentence; a real fall told newest first with both windows, p and q, and links to the answers behind it; --json is the API's answer", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const quiet = await user.browser.api.createTracker(trackerInput());
    expect(await runCli(["track", "alerts", quiet.id], asUser)).toMatchObject({
      code: EXIT.ok,
      stdout: "No alerts: no rate has moved beyond how much this tracker's runs vary from run to run, and no provider's model or search tool has changed.\n",
    });

    const { tracker, second, after, fall } = await trackerWithAFall(server, user);
    const listed = await user.browser.api.listTrackerAlerts(tracker.id);
    const shown = await runCli(["track", "alerts", tracker.id], asUser);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain("Simulated (invented answers, not the live provider): ChatGPT");
    // The fall in words, both windows with their interval and n, p and q, when; then the second run's saved searches, as links.
    const side = (s: typeof fall.before) => `${s?.rate.toFixed(1)}% (${s?.low.toFixed(1)}–${s?.high.toFixed(1)}, n=${s?.n})`;
    const probability = (value = Number.NaN) => (value < 0.0001 ? "< 0.0001" : `= ${Number(value.toPrecision(2))}`);
    const blocks = shown.stdout.trimEnd().split("\n\n");
    const block = blocks.find((text) => text.startsWith("Citations of HubSpot's own domains fell on ChatGPT (simulated), over all queries: "));
    expect(block).toBe(
      [
        `Citations of HubSpot's own domains fell on ChatGPT (simulated), over all queries: ${side(fall.before)} → ${side(fall.after)}; ` +
          `p ${probability(fall.p)}, q ${probability(fall.q)}, counted with its runs' spread ×${fall.dispersion!.phi.toFixed(1)} against ${fall.baselineRuns!.length} runs · ${second.scheduledFor.slice(0, 16).replace("T", " ")} UTC`,
        `  Answers: ${fall.searchIds.map((id) => `${server.baseUrl}/search/${id}`).join(" ")}`,
      ].join("\n"),
    );
    expect(fall.searchIds.toSorted()).toEqual(after.flatMap((run) => run.queries.map((query) => query.searchId ?? "none")).toSorted());
    expect(fall.before?.rate).toBeGreaterThan(fall.after?.rate ?? 100);
    // A block per alert, in the API's order (newest first), after the simulated line.
    expect(blocks).toHaveLength(1 + listed.alerts.length);
    expect(blocks.indexOf(block ?? "")).toBe(1 + listed.alerts.findIndex((alert) => alert.id === fall.id));
    // A link opens the saved search, as any search's page does.
    const link = /Answers: (\S+)/.exec(block ?? "")?.[1] ?? "";
    expect((await fetch(link)).status).toBe(200);

    const json = await runCli(["track", "alerts", tracker.id, "--json"], asUser);
    expect(json.code).toBe(EXIT.ok);
    expect(JSON.parse(json.stdout)).toEqual(listed);

    // The trend as CSV: the byte-order mark, the header and a row per point of the API's answer, the subject and figures as it has them.
    const trend = await user.browser.api.getTrackerTrend(tracker.id, { metric: "citation" });
    const printed = spawnCli(["track", "trend", tracker.id, "--metric", "citation", "--csv"], asUser);
    // Bytes, not text: decoding as text would drop the byte-order mark.
    const csv = Buffer.from(await new Response(printed.stdout).arrayBuffer()).toString("latin1");
    expect(await printed.exited).toBe(EXIT.ok);
    expect(csv.startsWith("\xEF\xBB\xBFrun_id,at,provider,query,subject,is_brand,metric,n,k,rate,low,high,model_version\r\n")).toBe(true);
    const rows = csv.slice(3).trimEnd().split("\r\n").slice(1);
    expect(rows).toHaveLength(trend.points.length);
    expect(rows).toEqual(
      trend.points.map((point) =>
        [point.runId, point.at, "openai", "", "HubSpot", "Yes", "citation", point.n, point.k, point.rate, point.low, point.high, point.modelVersion].join(","),
      ),
    );
    expect((await runCli(["track", "trend", tracker.id, "--csv", "--json"], asUser)).code).toBe(EXIT.usage);
  }, 120_000);

  test("run --wait exits by how the run ended: 4 when every provider failed, 6 when some answers did", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput());
    try {
      for (const id of providerIds) server.simulator.setFaults(id, [{ kind: "server_error" }], { persistent: true, kinds: ["search"] });
      const failed = await runCli(["track", "run", tracker.id, "--wait", "--json"], asUser);
      expect(failed.code).toBe(EXIT.server);
      expect(v.parse(TrackerRun, JSON.parse(failed.stdout)).status).toBe("failed");
      expect(failed.stderr).toContain("failed");

      server.simulator.clearFaults();
      server.simulator.setFaults("gemini", [{ kind: "server_error" }], { persistent: true, kinds: ["search"] });
      const partial = await runCli(["track", "run", tracker.id, "--wait", "--json"], asUser);
      expect(partial.code).toBe(EXIT.partialRun);
      const run = v.parse(TrackerRun, JSON.parse(partial.stdout));
      expect(run.status).toBe("partial");
      expect(run.answers.failed).toBeGreaterThan(0);
      expect(partial.stderr).toContain(`Run ${run.id} · partial`);
    } finally {
      server.simulator.clearFaults();
    }
  });

  test("run while a run is queued or running is refused naming that run; without --wait it says the run is queued", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput());
    server.simulator.setLatency({ kind: "fixed", ms: 3000 });
    try {
      const first = await runCli(["track", "run", tracker.id], asUser);
      expect(first.code).toBe(EXIT.ok);
      const [, runId] = /^Run (\S+) queued\.$/m.exec(first.stdout) ?? [];
      expect(runId).toBeDefined();
      const second = await runCli(["track", "run", tracker.id], asUser);
      expect(second.code).toBe(EXIT.usage);
      expect(second.stderr).toContain(runId ?? "the first run");
      expect(second.stderr).toContain(`aisc track show ${tracker.id}`);
    } finally {
      server.simulator.setLatency({ kind: "fixed", ms: 5 });
    }
    await waitFor(async () => (await user.browser.api.listTrackerRuns(tracker.id)).runs.every((run) => !["queued", "running"].includes(run.status)), {
      what: "the run to end",
      timeoutMs: 60_000,
    });
  });

  test("Ctrl-C during run --wait stops following, not the run: it says where to find it, exits 130, and the run completes on the server", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput());
    server.simulator.setLatency({ kind: "fixed", ms: 2000 });
    try {
      const cli = spawnCli(["track", "run", tracker.id, "--wait"], asUser);
      const running = await waitFor(async () => (await user.browser.api.listTrackerRuns(tracker.id)).runs.find((run) => run.status === "running"), {
        what: "the run to start",
      });
      cli.kill("SIGINT");
      expect(await cli.exited).toBe(EXIT.interrupted);
      expect(await new Response(cli.stderr).text()).toContain(`Stopped following run ${running.id}; it goes on: aisc track show ${tracker.id}`);
      const ended = await waitFor(
        async () => {
          const run = await user.browser.api.getTrackerRun(tracker.id, running.id);
          return run.status === "queued" || run.status === "running" ? undefined : run;
        },
        { what: "the run to end", timeoutMs: 60_000 },
      );
      expect(ended.status).toBe("completed");
    } finally {
      server.simulator.setLatency({ kind: "fixed", ms: 5 });
    }
  });

  test("pause and resume change the tracker on the server; --json prints it", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput());

    const paused = await runCli(["track", "pause", tracker.id], asUser);
    expect(paused).toMatchObject({ code: EXIT.ok, stdout: `Paused CRM watch (${tracker.id}).\n` });
    expect((await user.browser.api.getTracker(tracker.id)).paused).toBe(true);
    expect(rowOf((await runCli(["track", "list"], asUser)).stdout, tracker.id)).toContain("paused");

    const resumed = await runCli(["track", "resume", tracker.id, "--json"], asUser);
    expect(resumed.code).toBe(EXIT.ok);
    expect(v.parse(Tracker, JSON.parse(resumed.stdout)).paused).toBe(false);
    expect((await user.browser.api.getTracker(tracker.id)).paused).toBe(false);
  });

  test("webhooks: create and update set, move, rotate and remove one, the secret printed once; webhook-test says whether it was delivered", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const received: string[] = [];
    const hook = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        received.push(request.headers.get("x-aisc-event") ?? "");
        return new Response("ok");
      },
    });
    const url = `http://127.0.0.1:${hook.port}/hook`;
    try {
      const create = ["track", "create", "--name", "Hooked", "--query", "best crm", "--brand", "HubSpot", "--weekly", "mon@09:00"];
      const created = await runCli([...create, "--webhook", url, "--webhook-format", "slack"], asUser);
      expect(created.code).toBe(EXIT.ok);
      const secret = /^Webhook secret \(shown this once, keep it now\): (whsec_\S+)$/m.exec(created.stdout)?.[1];
      expect(secret).toBeDefined();
      expect(created.stdout).toContain("X-AISC-Signature: t=<unix seconds>,v1=<hex>");
      const id = /\(([0-9a-f-]{36})\)/.exec(created.stdout)![1]!;
      expect((await user.browser.api.getTracker(id)).webhook).toEqual({ url, format: "slack" });

      expect(await runCli(["track", "webhook-test", id], asUser)).toMatchObject({ code: EXIT.ok, stdout: "Delivered: your endpoint answered 200.\n" });
      expect(received).toEqual(["test"]);
      const json = await runCli(["track", "webhook-test", id, "--json"], asUser);
      expect(JSON.parse(json.stdout)).toEqual({ delivered: true, status: 200 });

      // A rotation keeps the address and format and prints the new secret; a format change alone prints none.
      const rotated = await runCli(["track", "update", id, "--rotate-secret"], asUser);
      expect(rotated.code).toBe(EXIT.ok);
      expect(rotated.stdout).toStartWith(`Hooked (${id}) posts to ${url} (slack).\n`);
      const next = /^Webhook secret \(shown this once, keep it now\): (whsec_\S+)$/m.exec(rotated.stdout)?.[1];
      expect(next).toBeDefined();
      expect(next).not.toBe(secret);
      const json2 = await runCli(["track", "update", id, "--webhook-format", "json"], asUser);
      expect(json2).toMatchObject({ code: EXIT.ok, stdout: `Hooked (${id}) posts to ${url} (json).\n` });

      // Moved to where nobody listens: not delivered, exit 4.
      hook.stop(true);
      await runCli(["track", "update", id, "--webhook", url], asUser);
      const failed = await runCli(["track", "webhook-test", id], asUser);
      expect(failed.code).toBe(EXIT.server);
      expect(failed.stdout).toStartWith("Not delivered: your endpoint could not be reached");

      expect(await runCli(["track", "update", id, "--no-webhook"], asUser)).toMatchObject({ code: EXIT.ok, stdout: `Hooked (${id}) has no webhook.\n` });
      expect((await user.browser.api.getTracker(id)).webhook).toBeUndefined();
      const none = await runCli(["track", "webhook-test", id], asUser);
      expect(none.code).toBe(EXIT.usage);
      expect(none.stderr).toContain("This tracker has no webhook: set one, then send a test");

      for (const [args, message] of [
        [["track", "update", id], "say what to change: --webhook <url>, --no-webhook, --webhook-format or --rotate-secret"],
        [["track", "update", id, "--rotate-secret"], "this tracker has no webhook: give it one with --webhook <url>"],
        [["track", "update", id, "--webhook", url, "--webhook-format", "xml"], "--webhook-format: webhook.format must be json or slack"],
        [["track", "update", id, "--webhook", "not a url"], "--webhook: webhook.url must be a URL"],
        [[...create, "--webhook-format", "slack"], "--webhook-format goes with --webhook <url>"],
        [[...create, "--webhook", url, "--webhook-format", "xml"], "--webhook-format: webhook.format must be json or slack"],
      ] as Array<[string[], string]>) {
        const run = await runCli(args, asUser);
        expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: EXIT.usage, stderr: expect.stringContaining(message) });
      }
    } finally {
      hook.stop(true);
    }
  });

  test("delete refuses without a terminal unless --yes; with it the tracker is gone (then: not found, exit 5)", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput());

    const unasked = await runCli(["track", "delete", tracker.id], asUser);
    expect(unasked.code).toBe(EXIT.usage);
    expect(unasked.stderr).toContain("add --yes");
    expect((await user.browser.api.getTracker(tracker.id)).id).toBe(tracker.id);

    expect(await runCli(["track", "delete", tracker.id, "--yes"], asUser)).toMatchObject({
      code: EXIT.ok,
      stdout: `Deleted ${tracker.id}; its saved searches stay in your history.\n`,
    });
    expect((await user.browser.api.listTrackers()).trackers).toEqual([]);
    expect((await runCli(["track", "delete", tracker.id, "--yes"], asUser)).code).toBe(EXIT.notFound);
    // --no-keep-searches deletes them with it (the API's keepSearches=false).
    const other = await user.browser.api.createTracker(trackerInput());
    expect(await runCli(["track", "delete", other.id, "--yes", "--no-keep-searches"], asUser)).toMatchObject({
      code: EXIT.ok,
      stdout: `Deleted ${other.id} and its saved searches.\n`,
    });
  });

  test("the errors: Pro required (3), another user's or no tracker (5), bad input naming its flag (1), not signed in (2)", async () => {
    const server = getServer();
    const free = await createUser(server);
    const asFree = { server, env: { AISC_TOKEN: free.token } };
    const create = ["track", "create", "--name", "CRM", "--query", "best crm", "--brand", "HubSpot", "--weekly", "mon@09:00"];
    const refused = await runCli(create, asFree);
    expect(refused.code).toBe(EXIT.limit);
    expect(refused.stderr).toContain(PRO_REQUIRED);
    expect((await runCli(["track", "list"], asFree)).code).toBe(EXIT.limit);

    const { user, asUser } = await proUser(server);
    const theirs = await user.browser.api.createTracker(trackerInput());
    const other = await proUser(server);
    for (const args of [
      ["track", "show", theirs.id],
      ["track", "run", theirs.id],
      ["track", "pause", theirs.id],
      ["track", "delete", theirs.id, "--yes"],
      ["track", "trend", theirs.id],
      ["track", "alerts", theirs.id],
      ["track", "alerts", UNKNOWN],
      ["track", "show", UNKNOWN],
      ["track", "run", UNKNOWN, "--wait"],
      ["track", "resume", "no-such-tracker"],
    ]) {
      const run = await runCli(args, other.asUser);
      expect({ args, code: run.code }).toEqual({ args, code: EXIT.notFound });
      expect(run.stderr).toStartWith("error:");
    }
    expect((await user.browser.api.getTracker(theirs.id)).paused).toBe(false);

    const before = (await clientAs(server, user.token).listTrackers()).trackers.length;
    const cases: Array<[string[], string]> = [
      [["--daily", "25:00"], '--daily: a time of day as HH:MM (24-hour), e.g. 09:00, not "25:00"'],
      [["--weekly", "someday@09:00"], "--weekly: a day and a time of day as DAY@HH:MM"],
      [["--daily", "09:00", "--cron", "0 9 * * *"], "say when it runs: one of --daily HH:MM, --weekly day@HH:MM or --cron"],
      [["--cron", "0 9 * *"], "--cron: schedule.cron must have five fields"],
      [["--daily", "09:00", "--iterations", "0"], "--iterations: iterations must be a whole number from 1 to 100"],
      [["--daily", "09:00", "--timezone", "Mars/Base"], "--timezone: schedule.timezone must be an IANA time zone"],
      [["--daily", "09:00", "--query", "best crm"], "--query: queries must not repeat a question"],
      [["--daily", "09:00", "--country", "Germany"], "--country: location.country must be a two-letter ISO 3166-1 country code"],
      [["--daily", "09:00", "--domain", "not a domain"], "--domain: A domain looks like example.com"],
    ];
    for (const [flags, message] of cases) {
      const run = await runCli(["track", "create", "--name", "CRM", "--query", "best crm", "--brand", "HubSpot", ...flags], asUser);
      expect({ flags, code: run.code, stderr: run.stderr }).toEqual({ flags, code: EXIT.usage, stderr: expect.stringContaining(message) });
    }
    // The server's own check (TRACKER_MIN_INTERVAL_MINUTES, 60 by default), its message naming the field.
    const tooOften = await runCli([...create.slice(0, -2), "--cron", "* * * * *"], asUser);
    expect(tooOften.code).toBe(EXIT.usage);
    expect(tooOften.stderr).toContain("schedule.cron");
    expect((await clientAs(server, user.token).listTrackers()).trackers.length).toBe(before);

    expect((await runCli(["track", "list"], { server })).code).toBe(EXIT.auth);
  });
});

describe("aisc track report", () => {
  // Read by useCliServer when it starts the app, after this block's SMTP server is listening.
  const env: Record<string, string> = {};
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    env.SMTP_URL = smtp.url;
  });
  afterAll(async () => smtp.stop());
  const getServer = useCliServer({ env });

  test("--add prints the recipient pending, --cadence weekly, --test says what it did, --remove, a bad address is a usage error; --json is the contract's", async () => {
    const server = getServer();
    const { user, asUser } = await proUser(server);
    const tracker = await user.browser.api.createTracker(trackerInput({ schedule: { cron: "0 9 * * 1", timezone: "Europe/Berlin" } }));

    const none = await runCli(["track", "report", tracker.id], asUser);
    expect(none).toMatchObject({ code: EXIT.ok, stdout: "Report: off.\nNo recipients.\n" });

    const added = await runCli(["track", "report", tracker.id, "--add", "CEO@example.com", "--cadence", "weekly"], asUser);
    expect(added.code).toBe(EXIT.ok);
    // Mondays 08:00 in the tracker's zone, written in it.
    expect(added.stdout).toMatch(/^Report: weekly \(next: [A-Z][a-z]{2} \d{1,2}, \d{4}, 08:00 \(Europe\/Berlin\)\)\.$/m);
    expect(added.stdout).toContain("  ceo@example.com  pending");
    const confirmation = await waitFor(() => smtp.inbox.find((mail) => mail.to.includes("ceo@example.com")), { what: "the confirmation" });
    expect(linksIn(confirmation.text, "/email/report/confirm/")).toHaveLength(1);

    const both = await runCli(["track", "report", tracker.id, "--add", "team@example.com", "--json"], asUser);
    expect(both.code).toBe(EXIT.ok);
    const settings = v.parse(ReportSettings, JSON.parse(both.stdout));
    expect(settings).toMatchObject({ emailConfigured: true, cadence: "weekly" });
    expect(settings.recipients.map((r) => [r.email, r.status])).toEqual([
      ["ceo@example.com", "pending"],
      ["team@example.com", "pending"],
    ]);
    expect(settings).toEqual(await clientAs(server, user.token).getTrackerReport(tracker.id));

    // The owner's address is not proved: the test is not sent, said in words, exit 4.
    const tested = await runCli(["track", "report", tracker.id, "--test"], asUser);
    expect(tested.code).toBe(EXIT.server);
    expect(tested.stdout).toContain(`Not sent: your address ${user.email} is not confirmed.`);
    const testedJson = await runCli(["track", "report", tracker.id, "--test", "--json"], asUser);
    expect(testedJson.code).toBe(EXIT.server);
    const { test: result, ...rest } = JSON.parse(testedJson.stdout) as { test: unknown };
    expect(v.parse(ReportTestResult, result)).toMatchObject({ outcome: "unconfirmed", to: user.email });
    expect(v.parse(ReportSettings, rest)).toEqual(settings);
    expect(smtp.inbox.filter((mail) => mail.to.includes(user.email))).toHaveLength(0);
    // Once the owner proved their address (the profile's e-mail confirmation): sent to them alone.
    await user.browser.api.updateNotifications({ digest: true });
    const own = await waitFor(() => smtp.inbox.find((mail) => mail.to.includes(user.email)), { what: "the owner's confirmation" });
    await user.browser.request("POST", `/api${new URL(linksIn(own.text, "/email/confirm/")[0]!).pathname}`);
    const sent = await runCli(["track", "report", tracker.id, "--test"], asUser);
    expect(sent).toMatchObject({ code: EXIT.ok, stdout: expect.stringContaining(`A test report was sent to ${user.email}, and to no one else.`) });
    const testMail = await waitFor(() => smtp.inbox.find((mail) => mail.subject.startsWith("[Test] CRM watch: ")), { what: "the test report" });
    expect(testMail.to).toEqual([user.email]);

    const removed = await runCli(["track", "report", tracker.id, "--remove", "ceo@example.com"], asUser);
    expect(removed.code).toBe(EXIT.ok);
    expect(removed.stdout).not.toContain("ceo@example.com");
    expect(removed.stdout).toContain("  team@example.com  pending");
    expect((await clientAs(server, user.token).getTrackerReport(tracker.id)).recipients.map((r) => r.email)).toEqual(["team@example.com"]);

    // --new-link: a share link for recipients when none is live; refused while one is.
    const linked = await runCli(["track", "report", tracker.id, "--new-link"], asUser);
    expect(linked.code).toBe(EXIT.ok);
    const { shareUrl } = await clientAs(server, user.token).getTrackerReport(tracker.id);
    expect(linked.stdout).toContain(`Recipients' reports link to ${shareUrl}`);
    const again = await runCli(["track", "report", tracker.id, "--new-link"], asUser);
    expect(again).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining(`Recipients' reports already link to ${shareUrl}`) });

    // A bad address: the contract's message after the flag, nothing changed.
    const bad = await runCli(["track", "report", tracker.id, "--add", "not an address"], asUser);
    const message = v.safeParse(UpdateReport, { cadence: "weekly", recipients: ["not an address"] }).issues?.[0].message;
    expect(message).toBeString();
    expect(bad).toMatchObject({ code: EXIT.usage, stdout: "", stderr: `error: --add: ${message}\n` });
    const badCadence = await runCli(["track", "report", tracker.id, "--cadence", "daily"], asUser);
    expect(badCadence).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("--cadence must be one of weekly, monthly, off") });
    expect((await clientAs(server, user.token).getTrackerReport(tracker.id)).recipients.map((r) => r.email)).toEqual(["team@example.com"]);
  });
});
