import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { migrate } from "#db/migrate.ts";
import { apiTokens, shares, users } from "#db/schema.ts";
import type { ApiClient } from "#src/client/api.ts";
import type { CompareReport } from "#src/contract/compare.ts";
import type { Share, SharedView, ShareList } from "#src/contract/shares.ts";
import type { CreatedToken } from "#src/contract/tokens.ts";
import type { Tracker, TrackerRun, TrackerRunList } from "#src/contract/trackers.ts";
import type { TrackerAlertList, Trend } from "#src/contract/trend.ts";
import type { TrackerChanges } from "#src/contract/changes.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase, migrateUpTo } from "#tests/support/databases.ts";
import { alertingTracker, BASELINE_RUNS, runTimes, runToEnd } from "#tests/support/trackers.ts";
import type { AssetManifest } from "#web/document.tsx";
import { selectRows } from "#db/client.ts";

/*
 * Read-only share links. The owner makes one for a saved search, a comparison or a
 * tracker; a browser without any session opens it; nothing of the owner's own (e-mail, username,
 * tokens, other searches, the webhook, the saved searches behind a tracker's runs) is in any answer
 * a link gives; revoked, expired and made-up links are 404; a frozen tracker link stops its clock.
 */

const GONE = { code: "NOT_FOUND", message: "This link does not exist, has expired or was revoked." };
const tokenOf = (share: Share) => share.url.split("/").at(-1)!;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ seed: 27, latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("share links", (getDb) => {
  test("a free user's search link opens without a session, shows no owner data, is listed with its last opening, and 404s once revoked or expired", async () => {
    const { app } = await createTestApp(getDb(), { simulator });
    const owner = createAgent(app);
    const account = await signUp(owner, getDb());
    const apiToken = ((await owner.request("POST", "/api/tokens", { name: "laptop" })).json as CreatedToken).token;
    const shared = (await owner.api.search({ query: "best crm for startups" })).result;
    const other = (await owner.api.search({ query: "zebra-secret pricing of acme" })).result;

    const created = await owner.request("POST", "/api/shares", { kind: "search", id: shared.id });
    expect(created.status).toBe(201);
    const link = created.json as Share;
    expect(link).toMatchObject({ kind: "search", targetId: shared.id, title: "best crm for startups", frozen: false, expired: false, lastOpenedAt: null });
    expect(link.expiresAt).toBeUndefined();
    // The link's origin is the one the call reached; its token is 256 random bits.
    expect(link.url).toMatch(/^http:\/\/localhost\/shared\/[A-Za-z0-9_-]{43}$/);

    const visitor = createAgent(app);
    const opened = await visitor.request("GET", `/api/shared/${tokenOf(link)}`);
    expect(opened.status).toBe(200);
    const view = opened.json as Extract<SharedView, { kind: "search" }>;
    expect(view.kind).toBe("search");
    expect(view.search.query).toBe("best crm for startups");
    expect(view.search.id).toBe(shared.id);
    // The same answer as the owner's GET /api/search/{id}, read back through the typed client.
    const asOwner = await owner.api.getSearch(shared.id);
    const asVisitor = await visitor.api.getShared(tokenOf(link));
    expect(asVisitor.kind === "search" && asVisitor.search).toEqual(asOwner);
    // For whoever holds it only: never indexed, cached or sent on as a Referer.
    expect(opened.headers.get("x-robots-tag")).toContain("noindex");
    expect(opened.headers.get("cache-control")).toBe("no-store");
    expect(opened.headers.get("referrer-policy")).toBe("no-referrer");
    for (const secret of [account.email, account.username, apiToken, other.query, other.id]) expect(opened.text).not.toContain(secret);
    // The link's page says the same to robots, caches and the sites it links to.
    const page = await visitor.fetch(`http://localhost/shared/${tokenOf(link)}`);
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    // The search view's chunks are preloaded with the page, not found only once the entry has run.
    const html = await page.text();
    const { pages } = JSON.parse(readFileSync(new URL("../../dist/manifest.json", import.meta.url), "utf8")) as AssetManifest;
    expect(pages.search?.length).toBeGreaterThan(0);
    for (const href of pages.search ?? []) expect(html).toContain(`<link rel="modulepreload" href="${href}"/>`);
    expect(html).not.toContain(`<link rel="modulepreload" href="${pages.trackers?.[0]}"/>`);

    // A search's link opens no tracker reads.
    expect(await visitor.request("GET", `/api/shared/${tokenOf(link)}/runs`)).toMatchObject({ status: 404, json: GONE });

    // The owner's list: the link, with when it was opened.
    const list = (await owner.request("GET", "/api/shares")).json as ShareList;
    expect(list.shares).toHaveLength(1);
    expect(list.shares[0]).toMatchObject({ id: link.id, url: link.url, expired: false });
    expect(list.shares[0]!.lastOpenedAt).not.toBeNull();

    // Another user can neither revoke it nor share the owner's search.
    const stranger = createAgent(app);
    await signUp(stranger, getDb());
    expect((await stranger.request("DELETE", `/api/shares/${link.id}`)).status).toBe(404);
    expect(await stranger.request("POST", "/api/shares", { kind: "search", id: other.id })).toMatchObject({
      status: 404,
      json: { code: "NOT_FOUND", message: "Search not found" },
    });
    expect(((await stranger.request("GET", "/api/shares")).json as ShareList).shares).toEqual([]);
    expect((await visitor.request("GET", `/api/shared/${tokenOf(link)}`)).status).toBe(200);

    // A free account shares searches, not comparisons or trackers (Pro).
    for (const kind of ["compare", "tracker"])
      expect(await owner.request("POST", "/api/shares", { kind, id: shared.id })).toMatchObject({ status: 403, json: { code: "PRO_REQUIRED" } });

    // Revoked: gone, with one friendly message.
    expect(await owner.request("DELETE", `/api/shares/${link.id}`)).toMatchObject({ status: 200, json: { success: true } });
    expect(await visitor.request("GET", `/api/shared/${tokenOf(link)}`)).toMatchObject({ status: 404, json: GONE });
    expect(((await owner.request("GET", "/api/shares")).json as ShareList).shares).toEqual([]);

    // Expired: gone too, and listed as expired.
    const expiring = (await owner.request("POST", "/api/shares", { kind: "search", id: shared.id, expiresInDays: 7 })).json as Share;
    const days = (Date.parse(expiring.expiresAt!) - Date.parse(expiring.createdAt)) / 86_400_000;
    expect(days).toBe(7);
    expect((await visitor.request("GET", `/api/shared/${tokenOf(expiring)}`)).status).toBe(200);
    await getDb()
      .db.update(shares)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shares.id, expiring.id));
    expect(await visitor.request("GET", `/api/shared/${tokenOf(expiring)}`)).toMatchObject({ status: 404, json: GONE });
    expect(((await owner.request("GET", "/api/shares")).json as ShareList).shares.map((s) => [s.id, s.expired])).toEqual([[expiring.id, true]]);

    // A made-up or malformed token: the same 404.
    for (const token of ["x".repeat(43), "short", "a".repeat(44), "a".repeat(42) + "!"])
      expect(await visitor.request("GET", `/api/shared/${token}`)).toMatchObject({ status: 404, json: GONE });
    // The search deleted: its link is gone with it.
    const again = (await owner.request("POST", "/api/shares", { kind: "search", id: shared.id })).json as Share;
    expect((await owner.request("DELETE", `/api/search/${shared.id}`)).status).toBe(200);
    expect(await visitor.request("GET", `/api/shared/${tokenOf(again)}`)).toMatchObject({ status: 404, json: GONE });
  });

  test("a link's url points at the origin the browser addressed, behind a proxy (TRUST_PROXY) too, and when a page reads the list on the server", async () => {
    // A page that shows the owner's list, read through the app as the profile page's data is.
    const renderer =
      () =>
      async ({ api }: { api: ApiClient }) =>
        Response.json(await api.listShares());
    const { app } = await createTestApp(getDb(), { simulator, renderer });
    const owner = createAgent(app);
    await signUp(owner, getDb());
    const search = (await owner.api.search({ query: "best crm for startups" })).result;
    const proxied = { "x-forwarded-host": "reports.example.com", "x-forwarded-proto": "https" };
    const made = (await owner.request("POST", "/api/shares", { kind: "search", id: search.id }, proxied)).json as Share;
    expect(made.url).toStartWith("https://reports.example.com/shared/");
    const listed = (await owner.request("GET", "/api/shares", undefined, proxied)).json as ShareList;
    expect(listed.shares.map((share) => share.url)).toEqual([made.url]);
    const page = (await owner.request("GET", "/user/profile", undefined, proxied)).json as ShareList;
    expect(page.shares.map((share) => share.url)).toEqual([made.url]);
    // Without a proxy's word, the address the request came to.
    expect(((await owner.request("GET", "/api/shares")).json as ShareList).shares[0]!.url).toStartWith("http://localhost/shared/");
  });

  test("bad bodies are 400s with a message; a visitor cannot make links; a token with the shares scope can", async () => {
    const { app } = await createTestApp(getDb(), { simulator });
    const owner = createAgent(app);
    await signUp(owner, getDb());
    const search = (await owner.api.search({ query: "best crm for startups" })).result;
    for (const body of [
      undefined,
      "not json",
      "[]",
      {},
      { kind: "search" },
      { kind: "page", id: search.id },
      { kind: "search", id: "" },
      { kind: "search", id: search.id, expiresInDays: 0 },
      { kind: "search", id: search.id, expiresInDays: 366 },
      { kind: "search", id: search.id, expiresInDays: 1.5 },
      { kind: "search", id: search.id, frozen: true },
      { kind: "search", id: search.id, variants: ["a"] },
    ]) {
      const answer = await owner.request("POST", "/api/shares", body);
      expect({ body, status: answer.status, code: (answer.json as { code?: string })?.code }).toEqual({ body, status: 400, code: "INVALID_INPUT" });
      expect((answer.json as { message: string }).message.length).toBeGreaterThan(0);
    }
    expect((await owner.request("POST", "/api/shares", { kind: "search", id: "not-a-uuid" })).status).toBe(404);
    expect((await owner.request("DELETE", "/api/shares/not-a-uuid")).status).toBe(404);
    expect((await createAgent(app).request("POST", "/api/shares", { kind: "search", id: search.id })).status).toBe(401);

    const token = ((await owner.request("POST", "/api/tokens", { name: "cli" })).json as CreatedToken).token;
    const script = createAgent(app);
    const auth = { authorization: `Bearer ${token}` };
    const made = await script.request("POST", "/api/shares", { kind: "search", id: search.id }, auth);
    expect(made.status).toBe(201);
    expect(((await script.request("GET", "/api/shares", undefined, auth)).json as ShareList).shares.map((s) => s.id)).toEqual([(made.json as Share).id]);
  });

  test("a comparison link pins the variants' saved searches as they were when shared", async () => {
    const { app } = await createTestApp(getDb(), { simulator });
    const { agent: owner } = await createProAgent(app, getDb());
    const original = (await owner.api.search({ query: "best standing desk" })).result;
    const variant = (await owner.api.search({ query: "standing desk for a small office" })).result;
    const link = (
      await owner.request("POST", "/api/shares", { kind: "compare", id: original.id, variants: ["Standing desk for a small office", "never searched"] })
    ).json as Share;
    expect(link).toMatchObject({ kind: "compare", title: "best standing desk" });
    // A newer search of the variant after sharing: the link still compares the one pinned.
    await owner.api.search({ query: "standing desk for a small office" });

    const visitor = createAgent(app);
    const opened = await visitor.request("GET", `/api/shared/${tokenOf(link)}`);
    expect(opened.status).toBe(200);
    const report = (opened.json as { report: CompareReport }).report;
    expect(report.searches.map((s) => [s.role, s.id])).toEqual([
      ["original", original.id],
      ["variant", variant.id],
    ]);
    expect(report.products.length).toBeGreaterThan(0);

    // Without variants: the query's saved variants, each its latest saved search (none yet: the original alone).
    const { variants } = await owner.api.generateVariants({ query: "best standing desk" });
    const searched = (await owner.api.search({ query: variants[0]!.query })).result;
    const bySet = (await owner.request("POST", "/api/shares", { kind: "compare", id: original.id })).json as Share;
    const setReport = ((await visitor.request("GET", `/api/shared/${tokenOf(bySet)}`)).json as { report: CompareReport }).report;
    expect(setReport.searches.map((s) => [s.role, s.id])).toEqual([
      ["original", original.id],
      ["variant", searched.id],
    ]);
  });

  test("a tracker link: living shows every run, frozen stops at sharing; neither shows the webhook, the budget, the estimate, runs' costs or the owner's saved searches", async () => {
    simulator.clearFaults();
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
    try {
      const { agent: owner, account } = await createProAgent(app, getDb());
      const apiToken = ((await owner.request("POST", "/api/tokens", { name: "laptop" })).json as CreatedToken).token;
      const webhook = "http://127.0.0.1:9/zebra-hook";
      const tracker = (await owner.request("POST", "/api/trackers", { ...alertingTracker, monthlyBudgetUsd: 12.5, webhook: { url: webhook, format: "json" } }))
        .json as Tracker;
      // A baseline of steady runs (an alert needs one, ADR 050); the latest of them is the frozen link's moment.
      const baseline = await runTimes(owner.api, tracker.id, BASELINE_RUNS);
      const first = baseline.at(-1)!;
      expect(baseline.map((run) => run.status)).toEqual(baseline.map(() => "completed"));

      const living = (await owner.request("POST", "/api/shares", { kind: "tracker", id: tracker.id })).json as Share;
      const frozen = (await owner.request("POST", "/api/shares", { kind: "tracker", id: tracker.id, frozen: true })).json as Share;
      expect([living.frozen, frozen.frozen]).toEqual([false, true]);

      // After sharing, OpenAI stops searching the web: the second run moves the citation rates (alerts) and the top lists.
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      const second = await runToEnd(owner.api, tracker.id);
      expect(second.status).toBe("completed");
      // The owner sees what the run cost; a link does not (below).
      expect(second.cost).toMatchObject({ simulated: expect.any(Boolean) });
      const ownerAlerts = await owner.api.listTrackerAlerts(tracker.id);
      expect(ownerAlerts.alerts.length).toBeGreaterThan(0);
      expect(ownerAlerts.alerts.some((alert) => alert.searchIds.length > 0)).toBe(true);

      const other = (await owner.api.search({ query: "zebra-secret pricing of acme" })).result;
      const visitor = createAgent(app);
      const secrets = [account.email, account.username, apiToken, webhook, "zebra-hook", other.query, other.id];
      const searchIds = [...baseline, second].flatMap((run) => run.queries.flatMap((query) => (query.searchId ? [query.searchId] : [])));
      expect(searchIds).toHaveLength(2 * (BASELINE_RUNS + 1));
      const read = async (token: string, path: string) => {
        const answer = await visitor.request("GET", `/api/shared/${token}${path}`);
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        for (const secret of [...secrets, ...searchIds]) expect({ path, leaks: answer.text.includes(secret) }).toEqual({ path, leaks: false });
        // The owner's spend: no run's cost, no estimate, no budget, anywhere in the answer.
        expect({ path, spend: keysOf(answer.json).filter((key) => /cost|estimate|budget|usd/i.test(key)) }).toEqual({ path, spend: [] });
        return answer.json;
      };

      // Living: the report as it is now.
      const livingView = (await read(tokenOf(living), "")) as Extract<SharedView, { kind: "tracker" }>;
      expect(livingView).toMatchObject({ kind: "tracker", frozen: false, tracker: { id: tracker.id, name: "CRM visibility", lastRun: { id: second.id } } });
      expect(livingView.tracker).not.toHaveProperty("webhook");
      expect(livingView.tracker).not.toHaveProperty("monthlyBudgetUsd");
      expect(livingView.tracker).not.toHaveProperty("estimate");
      expect(((await read(tokenOf(living), "/runs")) as TrackerRunList).runs.map((run) => run.id)).toEqual([
        second.id,
        ...baseline.map((run) => run.id).toReversed(),
      ]);
      const livingRun = (await read(tokenOf(living), `/runs/${second.id}`)) as TrackerRun;
      expect(livingRun.queries.map((query) => query.searchId)).toEqual([null, null]);
      expect(livingRun.queries[0]!.brandMentions).toBeDefined();
      expect(new Set(((await read(tokenOf(living), "/trend")) as Trend).points.map((point) => point.runId))).toEqual(
        new Set([...baseline, second].map((run) => run.id)),
      );
      await read(tokenOf(living), "/sources");
      const livingAlerts = (await read(tokenOf(living), "/alerts")) as TrackerAlertList;
      expect(livingAlerts.alerts.map((alert) => alert.id)).toEqual(ownerAlerts.alerts.map((alert) => alert.id));
      expect(livingAlerts.alerts.every((alert) => alert.searchIds.length === 0)).toBe(true);
      expect(((await read(tokenOf(living), "/changes")) as TrackerChanges).ready).toBe(true);

      // Frozen: as of the first run, whatever came after.
      const frozenView = (await read(tokenOf(frozen), "")) as Extract<SharedView, { kind: "tracker" }>;
      expect(frozenView).toMatchObject({
        kind: "tracker",
        frozen: true,
        frozenAt: first.scheduledFor,
        tracker: { id: tracker.id, lastRun: { id: first.id }, nextRunAt: null },
      });
      expect(((await read(tokenOf(frozen), "/runs")) as TrackerRunList).runs.map((run) => run.id)).toEqual(baseline.map((run) => run.id).toReversed());
      expect(await visitor.request("GET", `/api/shared/${tokenOf(frozen)}/runs/${second.id}`)).toMatchObject({ status: 404 });
      expect(((await read(tokenOf(frozen), `/runs/${first.id}`)) as TrackerRun).id).toBe(first.id);
      const beforeSharing = new Set(baseline.map((run) => run.id));
      expect(new Set(((await read(tokenOf(frozen), "/trend")) as Trend).points.map((point) => point.runId))).toEqual(beforeSharing);
      const far = "2100-01-01";
      expect(new Set(((await read(tokenOf(frozen), `/trend?to=${far}`)) as Trend).points.map((point) => point.runId))).toEqual(beforeSharing);
      const sources = (await read(tokenOf(frozen), `/sources?to=${far}`)) as { byType: Array<{ runId: string }> };
      expect(new Set(sources.byType.map((row) => row.runId))).toEqual(beforeSharing);
      expect(((await read(tokenOf(frozen), "/alerts")) as TrackerAlertList).alerts).toEqual([]);
      // As of the baseline's end: what changed then, among the steady runs, is nothing beyond the noise.
      const changedBefore = (await read(tokenOf(frozen), "/changes")) as TrackerChanges;
      expect(Object.values(changedBefore.providers).flatMap((found) => [...found.products.entered, ...found.products.left, ...found.domains.left])).toEqual([]);

      // Frozen after the second run: what changed then stays, though the owner changes the questions (a new series segment) afterwards.
      const frozenLater = (await owner.request("POST", "/api/shares", { kind: "tracker", id: tracker.id, frozen: true })).json as Share;
      const changedThen = (await read(tokenOf(frozenLater), "/changes")) as TrackerChanges;
      expect(changedThen.ready).toBe(true);
      await owner.api.updateTracker(tracker.id, { queries: ["best crm for startups"] });
      expect(((await read(tokenOf(living), "/changes")) as TrackerChanges).ready).toBe(false);
      expect((await read(tokenOf(frozenLater), "/changes")) as TrackerChanges).toEqual(changedThen);

      // The tracker deleted: its links are gone with it.
      expect((await owner.request("DELETE", `/api/trackers/${tracker.id}`)).status).toBe(200);
      for (const link of [living, frozen])
        for (const path of ["", "/runs", "/trend", "/alerts"])
          expect(await visitor.request("GET", `/api/shared/${tokenOf(link)}${path}`)).toMatchObject({ status: 404, json: GONE });
    } finally {
      simulator.clearFaults();
      await queue.stop();
    }
  }, 120_000);

  test("each link is rate-limited on its own: past the limit a 429 with Retry-After", async () => {
    // Reads are counted in fixed minutes: a clock inside one keeps the three reads in the same.
    const inAMinute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000);
    const { app } = await createTestApp(getDb(), { simulator, clock: () => inAMinute, env: { SHARE_READS_PER_MINUTE: "2" } });
    const owner = createAgent(app);
    await signUp(owner, getDb());
    const search = (await owner.api.search({ query: "best crm for startups" })).result;
    const [one, two] = await Promise.all([1, 2].map(async () => (await owner.request("POST", "/api/shares", { kind: "search", id: search.id })).json as Share));
    const visitor = createAgent(app);
    expect((await visitor.request("GET", `/api/shared/${tokenOf(one!)}`)).status).toBe(200);
    expect((await visitor.request("GET", `/api/shared/${tokenOf(one!)}`)).status).toBe(200);
    const refused = await createAgent(app).request("GET", `/api/shared/${tokenOf(one!)}`);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "RATE_LIMITED" });
    expect((refused.json as { message: string }).message).toMatch(/try again in \d+ (second|minute)/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The link's page is held to it too: a 429 with Retry-After, and none of what the link shows.
    const page = await visitor.fetch(`http://localhost/shared/${tokenOf(one!)}`);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await page.text()).not.toContain("Pipedrive");
    expect((await visitor.request("GET", `/api/shared/${tokenOf(two!)}`)).status).toBe(200);
    const open = await visitor.fetch(`http://localhost/shared/${tokenOf(two!)}`);
    expect(open.status).toBe(200);
    expect(await open.text()).toContain("Pipedrive");
  });
});

describeEachDatabase(
  "share links: the shares scope for tokens made before it",
  (getDb) => {
    test("a token holding every earlier scope gets shares; one holding fewer, or none stored (all), is left as it was", async () => {
      // The migrations up to the one before shares, as a database of the previous version has them.
      const left = await migrateUpTo(getDb(), "0011_shares");
      const { db } = getDb();
      // Plain SQL naming only columns a database of that version has: the schema's insert would name later ones.
      const [user] = await selectRows<{ id: string }>(
        db,
        sql`insert into users (username, email, password_hash, first_name, last_name) values ('scoped', 'scoped@example.com', 'x', 'S', 'C') returning id`,
      );
      const earlier = ["search", "history", "variants", "compare", "lens", "account:read", "trackers"];
      for (const [name, scopes] of [
        ["all-earlier", earlier],
        ["fewer", ["search", "history"]],
        ["unscoped", null],
      ] as const) {
        await db.execute(
          sql`insert into api_tokens (user_id, name, token_hash, scopes) values (${user!.id}, ${name}, ${name}, ${scopes === null ? null : `{${scopes.join(",")}}`}::text[])`,
        );
      }

      expect(await migrate(getDb())).toEqual({ applied: left });
      const rows = await db.select({ name: apiTokens.name, scopes: apiTokens.scopes }).from(apiTokens).orderBy(apiTokens.name);
      expect(rows).toEqual([
        // A later migration (0019) gives the same tokens "workspaces" in turn.
        { name: "all-earlier", scopes: [...earlier, "shares", "workspaces"] },
        { name: "fewer", scopes: ["search", "history"] },
        { name: "unscoped", scopes: null },
      ]);
    });
  },
  { migrated: false },
);

/** Every key in a JSON value, however deep. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}
