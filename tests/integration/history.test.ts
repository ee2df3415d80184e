import { expect, test } from "bun:test";
import { searches } from "#db/schema.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import type { SavedSearchList } from "#src/contract/history.ts";
import { signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { modelResult, savedResult } from "#tests/support/results.ts";
import type { Database } from "#db/client.ts";

type Saved = { query: string; at: string; iterations?: number; answered?: ProviderId[]; failed?: ProviderId[]; status?: "completed" | "running" };

/** A saved search of the user's, made at `at`, in which the `answered` providers answered and the `failed` ones failed. */
async function save(
  database: Database,
  userId: string,
  { query, at, iterations = 1, answered = ["openai", "anthropic", "gemini"], failed = [], status = "completed" }: Saved,
): Promise<string> {
  const models = Object.fromEntries([
    ...answered.map((id) => [id, modelResult(id)]),
    ...failed.map((id) => [id, modelResult(id, { status: "error", error: "down" })]),
  ]);
  const result = savedResult({ query, createdAt: at, iterationCount: iterations, models });
  const [row] = await database.db
    .insert(searches)
    .values({ userId, query, iterations, iterationCount: iterations, result: status === "completed" ? result : null, status, createdAt: new Date(at) })
    .returning({ id: searches.id });
  return row?.id ?? "";
}

describeEachDatabase("history: search, filter, rename, delete", (getDb) => {
  test("q finds text in the query or the title; provider, iterations and a date range narrow it; paging goes on through the filtered list", async () => {
    const { app } = await createTestApp(getDb());
    const agent = createAgent(app);
    const { id: userId } = await signUp(agent, getDb());
    const ids = {
      crmOld: await save(getDb(), userId, { query: "best CRM for agencies", at: "2026-10-01T10:00:00.000Z" }),
      vpn: await save(getDb(), userId, { query: "best vpn", at: "2026-10-05T10:00:00.000Z", iterations: 5, answered: ["openai"], failed: ["gemini"] }),
      crm: await save(getDb(), userId, { query: "cheap crm", at: "2026-11-01T10:00:00.000Z", iterations: 5 }),
      desk: await save(getDb(), userId, { query: "standing desk", at: "2026-11-02T23:30:00.000Z", iterations: 25, answered: ["anthropic", "gemini"] }),
      percent: await save(getDb(), userId, { query: "100% cotton sheets", at: "2026-11-03T10:00:00.000Z" }),
    };
    const list = async (params: string) => {
      const answer = await agent.request("GET", `/api/user/searches?${params}`);
      expect({ params, status: answer.status }).toEqual({ params, status: 200 });
      return (answer.json as SavedSearchList).searches.map((s) => s.id);
    };

    expect(await list("q=CRM")).toEqual([ids.crm, ids.crmOld]);
    expect(await list("q=%25")).toEqual([ids.percent]); // a literal %, not a wildcard
    expect((await agent.request("PATCH", `/api/search/${ids.desk}`, { title: "Desk research for the CRM team" })).status).toBe(200);
    expect(await list("q=crm")).toEqual([ids.desk, ids.crm, ids.crmOld]);
    expect(await list("provider=gemini")).toEqual([ids.percent, ids.desk, ids.crm, ids.crmOld]);
    expect(await list("provider=openai&iterations=5")).toEqual([ids.crm, ids.vpn]);
    expect(await list("iterations=25")).toEqual([ids.desk]);
    expect(await list("from=2026-11-01&to=2026-11-02")).toEqual([ids.desk, ids.crm]);
    expect(await list("from=2026-11-02T00:00:00Z")).toEqual([ids.percent, ids.desk]);
    expect(await list("to=2026-10-31")).toEqual([ids.vpn, ids.crmOld]);
    expect(await list("q=crm&provider=openai&from=2026-10-02")).toEqual([ids.crm]);

    // Pages of a filtered list: the cursor carries on through the same filter.
    const first = (await agent.request("GET", "/api/user/searches?provider=gemini&limit=2")).json as SavedSearchList;
    expect(first.searches.map((s) => s.id)).toEqual([ids.percent, ids.desk]);
    const second = (await agent.request("GET", `/api/user/searches?provider=gemini&limit=2&before=${first.nextCursor}`)).json as SavedSearchList;
    expect(second.searches.map((s) => s.id)).toEqual([ids.crm, ids.crmOld]);
    expect(second.nextCursor).toBeUndefined();
  });

  test("rename shows a title beside the query, null gives the query back; delete removes it; both are the owner's only (others 404)", async () => {
    const { app } = await createTestApp(getDb());
    const owner = createAgent(app);
    const stranger = createAgent(app);
    const { id: userId } = await signUp(owner, getDb());
    await signUp(stranger, getDb());
    const id = await save(getDb(), userId, { query: "best crm", at: "2026-11-01T10:00:00.000Z" });
    const other = await save(getDb(), userId, { query: "best vpn", at: "2026-11-02T10:00:00.000Z" });

    expect(await owner.request("PATCH", `/api/search/${id}`, { title: "  Agency CRM shortlist " })).toMatchObject({
      status: 200,
      json: { id, title: "Agency CRM shortlist" },
    });
    const [, renamed] = (await owner.api.listSearches()).searches;
    expect(renamed).toMatchObject({ id, query: "best crm", title: "Agency CRM shortlist" });
    await owner.api.renameSearch(id, null);
    expect((await owner.api.listSearches()).searches[1]?.title).toBeUndefined();

    for (const [method, body] of [
      ["PATCH", { title: "mine now" }],
      ["DELETE", undefined],
    ] as const) {
      expect(await stranger.request(method, `/api/search/${id}`, body)).toMatchObject({ status: 404, json: { message: "Search not found" } });
      expect(await createAgent(app).request(method, `/api/search/${id}`, body)).toMatchObject({ status: 404 });
      expect(await owner.request(method, "/api/search/not-a-uuid", body)).toMatchObject({ status: 404 });
    }

    expect(await owner.request("DELETE", `/api/search/${id}`)).toMatchObject({ status: 200, json: { success: true } });
    expect((await owner.api.listSearches()).searches.map((s) => s.id)).toEqual([other]);
    expect((await owner.request("GET", `/api/search/${id}`)).status).toBe(404);
    expect((await owner.request("DELETE", `/api/search/${id}`)).status).toBe(404);
  });

  test("a running search cannot be deleted (409); deleting a search does not give its free search back", async () => {
    const { app } = await createTestApp(getDb());
    const agent = createAgent(app);
    const { id: userId } = await signUp(agent, getDb());
    const running = await save(getDb(), userId, { query: "still going", at: new Date().toISOString(), status: "running" });
    expect(await agent.request("DELETE", `/api/search/${running}`)).toMatchObject({ status: 409, json: { message: expect.stringContaining("still running") } });

    const { result } = await agent.api.search({ query: "best crm" });
    expect((await agent.api.quota()).remaining).toBe(4);
    await agent.api.deleteSearch(result.id);
    expect((await agent.api.quota()).remaining).toBe(4);
  });

  test("bad history parameters and titles are a 400 with a message", async () => {
    const { app } = await createTestApp(getDb());
    const agent = createAgent(app);
    const { id: userId } = await signUp(agent, getDb());
    const id = await save(getDb(), userId, { query: "best crm", at: "2026-11-01T10:00:00.000Z" });
    for (const params of [
      "provider=bing",
      "iterations=0",
      "iterations=many",
      "from=yesterday",
      "to=2026-02-30",
      "from=2026-11-02&to=2026-11-01",
      "q=",
      "q=%20%20",
    ]) {
      const answer = await agent.request("GET", `/api/user/searches?${params}`);
      expect({ params, status: answer.status, message: typeof (answer.json as { message?: unknown }).message }).toEqual({
        params,
        status: 400,
        message: "string",
      });
    }
    for (const body of [{}, { title: 3 }, { title: "x".repeat(201) }, "[]"]) {
      const answer = await agent.request("PATCH", `/api/search/${id}`, body);
      expect({ body, status: answer.status, message: typeof (answer.json as { message?: unknown }).message }).toEqual({ body, status: 400, message: "string" });
    }
  });
});
