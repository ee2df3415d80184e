import { afterEach, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as v from "valibot";
import { providerCatalogue } from "#src/contract/providers.ts";
import { PRO_REQUIRED } from "#src/contract/quota.ts";
import { Tracker, TrackerList, TrackerRun } from "#src/contract/trackers.ts";
import { TrackerAlertList, Trend } from "#src/contract/trend.ts";
import { TrackerSummary } from "#src/contract/summary.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, trackerWithAFall, useCliServer, type CliServer } from "#tests/support/cli.ts";
import { waitFor } from "#tests/support/wait.ts";

/* The MCP tools list_trackers, tracker_latest_run, tracker_trend and tracker_alerts, through `aisc mcp` as an MCP client runs it. */

const getServer = useCliServer();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(server: CliServer, token: string): Promise<Client> {
  const env = cliEnv({ server, env: { AISC_TOKEN: token } });
  const client = new Client({ name: "aisc-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env, cwd: ROOT, stderr: "pipe" }));
  clients.push(client);
  return client;
}

const texts = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((item) => item.text);

test("the tools' input schemas come from the contract", async () => {
  const server = getServer();
  const client = await connect(server, (await createUser(server)).token);
  const { tools } = await client.listTools();
  expect(Object.keys(tools.find((tool) => tool.name === "list_trackers")?.inputSchema.properties ?? {})).toEqual(["workspace"]);
  const latest = tools.find((tool) => tool.name === "tracker_latest_run");
  expect(latest?.inputSchema.required).toEqual(["id"]);
  expect(latest?.inputSchema.properties?.id).toMatchObject({ type: "string", minLength: 1 });
  const trend = tools.find((tool) => tool.name === "tracker_trend");
  expect(trend?.inputSchema.required).toEqual(["id"]);
  expect(Object.keys(trend?.inputSchema.properties ?? {})).toEqual(["id", "metric", "query", "provider", "subject", "from", "to", "workspace"]);
  expect(trend?.inputSchema.properties?.metric).toMatchObject({ enum: ["mention", "sov", "citation", "position"] });
  const alerts = tools.find((tool) => tool.name === "tracker_alerts");
  expect(alerts?.inputSchema.required).toEqual(["id"]);
  expect(Object.keys(alerts?.inputSchema.properties ?? {})).toEqual(["id", "workspace"]);
});

test("list_trackers lists the user's trackers; tracker_latest_run answers the latest run's mention rates per query and provider, simulated ones said so", async () => {
  const server = getServer();
  const user = await createUser(server, { pro: true });
  const client = await connect(server, user.token);
  expect(texts(await client.callTool({ name: "list_trackers", arguments: {} }))[0]).toBe("No trackers.");

  const tracker = await user.browser.api.createTracker({
    name: "CRM watch",
    queries: ["best crm for a small agency", "best crm for startups"],
    brand: { name: "HubSpot" },
    providers: ["openai", "anthropic"],
    iterations: 2,
    schedule: { cron: "0 9 * * 1", timezone: "Europe/Berlin" },
  });
  const [listText, listJson] = texts(await client.callTool({ name: "list_trackers", arguments: {} }));
  expect(listText).toContain(`- ${tracker.id} · CRM watch · Every Monday at 09:00 (Europe/Berlin) · brand HubSpot · 2 queries · last run: never`);
  expect(v.parse(TrackerList, JSON.parse(listJson ?? "")).trackers.map((t) => t.id)).toEqual([tracker.id]);

  const before = await client.callTool({ name: "tracker_latest_run", arguments: { id: tracker.id } });
  expect(before.isError).toBeFalsy();
  // The headline comes first: no answers yet in its 7 days.
  expect(texts(before)[0]).toBe("HubSpot: no answers in the last 7 days.\nCRM watch: no run with results yet.");

  const { run: started } = await user.browser.api.runTracker(tracker.id);
  const ended = await waitFor(
    async () => {
      const run = await user.browser.api.getTrackerRun(tracker.id, started.id);
      return run.status === "queued" || run.status === "running" ? undefined : run;
    },
    { what: "the run to end", timeoutMs: 60_000 },
  );
  expect(ended.status).toBe("completed");

  const answer = await client.callTool({ name: "tracker_latest_run", arguments: { id: tracker.id } });
  expect(answer.isError).toBeFalsy();
  const [summary, json] = texts(answer);
  const document = JSON.parse(json ?? "") as { tracker: unknown; summary: unknown; run: unknown; simulated: unknown };
  const run = v.parse(TrackerRun, document.run);
  const headline = v.parse(TrackerSummary, document.summary);
  expect(summary?.split("\n")[0]).toBe(headline.sentence);
  expect(headline.sentence).toStartWith("HubSpot: named in ");
  expect(run).toEqual(ended);
  expect(v.parse(Tracker, document.tracker).id).toBe(tracker.id);
  // The keyless server's answers are simulated: the flags and the summary say so, per provider.
  expect(document.simulated).toEqual({ openai: true, anthropic: true });
  expect(summary).toContain(`CRM watch: Run ${run.id} · completed · 8/8 answers`);
  expect(summary).toContain("Simulated (invented answers, not the live provider): ChatGPT, Claude");
  for (const query of run.queries) {
    const line = summary?.split("\n").find((text) => text.startsWith(`- "${query.query}": `));
    for (const id of ["openai", "anthropic"] as const) {
      const rate = query.brandMentions?.[id];
      expect(line).toContain(`${providerCatalogue[id].model} (simulated) ${rate?.percentage}% (${rate?.count}/${rate?.n}) [${rate?.low}–${rate?.high}%]`);
    }
    expect(line).toContain(`(search ${query.searchId})`);
  }
  expect(summary).not.toContain("Gemini");
});

test("tracker_trend answers the API's points per run and provider with the simulated flags, narrowed as asked; in words, a line per run and a sparkline", async () => {
  const server = getServer();
  const user = await createUser(server, { pro: true });
  const client = await connect(server, user.token);
  const tracker = await user.browser.api.createTracker({
    name: "CRM watch",
    queries: ["best crm for a small agency"],
    brand: { name: "HubSpot" },
    competitors: [{ name: "Salesforce" }],
    providers: ["openai", "anthropic"],
    iterations: 2,
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  });
  const before = await client.callTool({ name: "tracker_trend", arguments: { id: tracker.id } });
  expect(before.isError).toBeFalsy();
  expect(texts(before)[0]).toBe("No runs with results yet.");

  for (let i = 0; i < 2; i++) {
    const { run } = await user.browser.api.runTracker(tracker.id);
    await waitFor(async () => (await user.browser.api.getTrackerRun(tracker.id, run.id)).status === "completed", {
      what: "the run to complete",
      timeoutMs: 60_000,
    });
  }
  const answer = await client.callTool({ name: "tracker_trend", arguments: { id: tracker.id } });
  expect(answer.isError).toBeFalsy();
  const [summary, json] = texts(answer);
  const document = JSON.parse(json ?? "") as { simulated: unknown };
  const trend = await user.browser.api.getTrackerTrend(tracker.id);
  expect(v.parse(Trend, document)).toEqual(trend);
  expect(trend.points).toHaveLength(2 * 2 * 2);
  // The keyless server's answers are simulated: the flags and the summary say so, per provider.
  expect(document.simulated).toEqual({ openai: true, anthropic: true });
  expect(summary).toContain("Simulated (invented answers, not the live provider): ChatGPT, Claude");
  // Each provider's lines, from its name to the next provider's.
  const sections = (summary ?? "").split(/^(ChatGPT|Claude) \(simulated\):$/m);
  for (const id of ["openai", "anthropic"] as const) {
    const section = sections[sections.indexOf(providerCatalogue[id].model) + 1] ?? "";
    const points = trend.points.filter((point) => point.provider === id);
    const lines = section.split("\n").filter((line) => line.startsWith("- "));
    const runIds = [...new Set(points.map((point) => point.runId))];
    expect(lines).toHaveLength(runIds.length);
    runIds.forEach((runId, i) => {
      const [brand, competitor] = ["HubSpot", "Salesforce"].map((subject) => points.find((point) => point.runId === runId && point.subject === subject));
      const figure = (point: typeof brand) => `${point?.rate?.toFixed(1)}% (${point?.low?.toFixed(1)}–${point?.high?.toFixed(1)}) n=${point?.n}`;
      expect(lines[i]).toBe(`- ${brand?.at.slice(0, 16).replace("T", " ")}: HubSpot ${figure(brand)}; Salesforce ${figure(competitor)}`);
    });
    expect(section).toMatch(/^HubSpot over the runs \(0–100%\): [▁▂▃▄▅▆▇█]{2}$/m);
  }

  const narrowed = await client.callTool({ name: "tracker_trend", arguments: { id: tracker.id, metric: "sov", provider: "anthropic", subject: "Salesforce" } });
  const narrowedJson = JSON.parse(texts(narrowed)[1] ?? "") as { simulated: unknown };
  expect(v.parse(Trend, narrowedJson)).toEqual(
    await user.browser.api.getTrackerTrend(tracker.id, { metric: "sov", provider: "anthropic", subject: "Salesforce" }),
  );
  expect(narrowedJson.simulated).toEqual({ anthropic: true });
});

test("tracker_alerts: none said so; a real fall in words with both windows, p, q and the saved searches behind it, and the API's answer with the simulated flags", async () => {
  const server = getServer();
  const user = await createUser(server, { pro: true });
  const client = await connect(server, user.token);
  const quiet = await user.browser.api.createTracker({
    name: "Quiet",
    queries: ["best crm"],
    brand: { name: "HubSpot" },
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  });
  const none = await client.callTool({ name: "tracker_alerts", arguments: { id: quiet.id } });
  expect(none.isError).toBeFalsy();
  expect(texts(none)[0]).toBe(
    "No alerts: no rate has moved beyond how much this tracker's runs vary from run to run, and no provider's model or search tool has changed.",
  );
  expect(JSON.parse(texts(none)[1] ?? "")).toEqual({ alerts: [], simulated: {} });

  const { tracker, second, after, fall } = await trackerWithAFall(server, user);
  const answer = await client.callTool({ name: "tracker_alerts", arguments: { id: tracker.id } });
  expect(answer.isError).toBeFalsy();
  const [summary, json] = texts(answer);
  const listed = await user.browser.api.listTrackerAlerts(tracker.id);
  const document = JSON.parse(json ?? "") as { simulated: unknown };
  expect(v.parse(TrackerAlertList, document)).toEqual(listed);
  expect(document.simulated).toEqual({ openai: true });

  const lines = (summary ?? "").split("\n");
  expect(lines.slice(0, 2)).toEqual([
    `${listed.alerts.length} alert${listed.alerts.length === 1 ? "" : "s"}, newest first:`,
    "Simulated (invented answers, not the live provider): ChatGPT",
  ]);
  const side = (s: typeof fall.before) => `${s?.rate.toFixed(1)}% (${s?.low.toFixed(1)}–${s?.high.toFixed(1)}, n=${s?.n})`;
  const probability = (value = Number.NaN) => (value < 0.0001 ? "< 0.0001" : `= ${Number(value.toPrecision(2))}`);
  // A line per alert in the API's order, the fall's with both windows, p, q, when, and the saved searches (get_search opens them).
  expect(lines.slice(2)).toHaveLength(listed.alerts.length);
  expect(lines[2 + listed.alerts.findIndex((alert) => alert.id === fall.id)]).toBe(
    `- Citations of HubSpot's own domains fell on ChatGPT (simulated), over all queries: ${side(fall.before)} → ${side(fall.after)}; ` +
      `p ${probability(fall.p)}, q ${probability(fall.q)}, counted with its runs' spread ×${fall.dispersion!.phi.toFixed(1)} against ${fall.baselineRuns!.length} runs · ${second.scheduledFor.slice(0, 16).replace("T", " ")} UTC (searches ${fall.searchIds.join(", ")})`,
  );
  expect(fall.searchIds.toSorted()).toEqual(after.flatMap((run) => run.queries.map((query) => query.searchId ?? "none")).toSorted());
}, 120_000);

test("the same refusals as the API: Pro required for a free user, another user's tracker not found, an empty id refused", async () => {
  const server = getServer();
  const free = await connect(server, (await createUser(server)).token);
  const refused = await free.callTool({ name: "list_trackers", arguments: {} });
  expect(refused.isError).toBe(true);
  expect(texts(refused)[0]).toContain(PRO_REQUIRED);

  const owner = await createUser(server, { pro: true });
  const theirs = await owner.browser.api.createTracker({
    name: "Theirs",
    queries: ["best crm"],
    brand: { name: "HubSpot" },
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  });
  const other = await connect(server, (await createUser(server, { pro: true })).token);
  const notFound = await other.callTool({ name: "tracker_latest_run", arguments: { id: theirs.id } });
  expect(notFound.isError).toBe(true);
  expect(texts(notFound)[0]).toMatch(/not found/i);
  const trendNotFound = await other.callTool({ name: "tracker_trend", arguments: { id: theirs.id } });
  expect(trendNotFound.isError).toBe(true);
  expect(texts(trendNotFound)[0]).toMatch(/not found/i);
  const alertsNotFound = await other.callTool({ name: "tracker_alerts", arguments: { id: theirs.id } });
  expect(alertsNotFound.isError).toBe(true);
  // The API's refusal, as tracker_trend's.
  expect(texts(alertsNotFound)).toEqual(texts(trendNotFound));
  const badRange = await other.callTool({ name: "tracker_trend", arguments: { id: theirs.id, from: "2026-02-01", to: "2026-01-01" } });
  expect(badRange.isError).toBe(true);
  expect(texts(badRange)).toEqual(["from must not be after to"]);
  const empty = await other.callTool({ name: "tracker_latest_run", arguments: { id: "  " } });
  expect(empty.isError).toBe(true);
  expect(texts(empty)).toEqual(["An id is required"]);
});
