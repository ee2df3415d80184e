import { expect, test } from "bun:test";
import { providerIds } from "#src/contract/providers.ts";
import type { CompareReport } from "#src/contract/compare.ts";
import type { LensReport } from "#src/contract/lens.ts";
import { isFinished, type VariantBatch } from "#src/contract/variants.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

type Agent = ReturnType<typeof createAgent>;

/** Until every item of the batch has finished (completed or failed), as the page polls. */
async function finished(agent: Agent, id: string): Promise<VariantBatch> {
  const isOver = (batch: VariantBatch) => batch.items.every((item) => isFinished(item.status));
  return waitFor(
    async () => {
      const batch = (await agent.request("GET", `/api/variant-batches/${id}`)).json as VariantBatch;
      return isOver(batch) && batch;
    },
    { what: `every item of batch ${id} finished`, timeoutMs: 45_000 },
  );
}

describeEachDatabase("workbench: variants, batches, compare, brand lens", (getDb) => {
  test("every Pro door refuses free and anonymous callers with 403 'Pro subscription required'", async () => {
    const { app } = await createTestApp(getDb());
    const anonymous = createAgent(app);
    const free = createAgent(app);
    await signUp(free, getDb());
    const doors: Array<[string, string, unknown]> = [
      ["POST", "/api/generate-variants", { query: "best crm", iterations: 1 }],
      ["POST", "/api/variant-batches", { query: "best crm", variants: [{ query: "crm for startups" }] }],
      ["GET", "/api/variant-batches?query=best%20crm", undefined],
      ["GET", "/api/variant-batches/00000000-0000-4000-8000-000000000000", undefined],
      ["POST", "/api/variant-batches/00000000-0000-4000-8000-000000000000/run", {}],
      ["GET", "/api/compare?compareQuery=best%20crm", undefined],
      ["GET", "/api/search/00000000-0000-4000-8000-000000000000/lens", undefined],
    ];
    for (const agent of [anonymous, free]) {
      for (const [method, path, body] of doors) {
        const answer = await agent.request(method, path, body);
        expect({ path, status: answer.status, body: answer.json }).toEqual({
          path,
          status: 403,
          body: { code: "PRO_REQUIRED", message: "Pro subscription required" },
        });
      }
    }
  });

  test("generate-variants: five rephrasings about the query, each with its reasoning, and which model wrote them", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    const answer = await agent.request("POST", "/api/generate-variants", { query: "best running shoes", iterations: 5, executeSearches: false });
    expect(answer.status).toBe(200);
    const { variants, generatedBy, batchId } = answer.json as {
      variants: Array<{ query: string; reasoning: string }>;
      generatedBy: { provider: string; mode: string };
      batchId?: string;
    };
    expect(variants).toHaveLength(5);
    for (const variant of variants) {
      expect(variant.query.toLowerCase()).not.toBe("best running shoes");
      expect(variant.reasoning.length).toBeGreaterThan(0);
    }
    expect(generatedBy).toMatchObject({ provider: providerIds[0], mode: "simulated" });
    expect(batchId).toBeUndefined();

    const { app: geminiWrites } = await createTestApp(getDb(), { env: { VARIANTS_PROVIDER: "gemini" } });
    const { agent: other } = await createProAgent(geminiWrites, getDb());
    expect(
      ((await other.request("POST", "/api/generate-variants", { query: "best vpn" })).json as { generatedBy: { provider: string } }).generatedBy.provider,
    ).toBe("gemini");
    expect((await agent.request("POST", "/api/generate-variants", { query: "   " })).status).toBe(400);
  });

  test("a batch runs its variants on the job queue without cancelling each other or the dashboard; it is saved, found again by query, and each search is in the history", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = await agent.request("POST", "/api/variant-batches", {
        query: "Best CRM",
        iterations: 1,
        variants: [{ query: "crm for startups", reasoning: "a founder" }, { query: "HubSpot vs Salesforce" }, { query: "cheap crm for a small team" }],
      });
      expect(created.status).toBe(200);
      const batch = created.json as VariantBatch;
      expect(batch.items.map((item) => item.status)).toEqual(["pending", "pending", "pending"]);

      const running = await agent.request("POST", `/api/variant-batches/${batch.id}/run`, {});
      // Queued (a worker may already have taken some): nothing is left waiting to be asked for.
      expect((running.json as VariantBatch).items.some((item) => item.status === "pending")).toBe(false);
      // The dashboard's own search at the same time is not cancelled by the batch, nor cancels it.
      const dashboard = await agent.request("POST", "/api/search", { query: "best crm", iterations: 1 });
      expect(dashboard.status).toBe(200);

      const done = await finished(agent, batch.id);
      expect(done.items.map((item) => item.status)).toEqual(["completed", "completed", "completed"]);
      const history = await agent.api.listSearches({ limit: 10 });
      for (const item of done.items) expect(history.searches.map((s) => s.id)).toContain(item.searchId ?? "missing");

      // Reopening the page finds the batch by its query, in any letter case.
      expect(((await agent.request("GET", "/api/variant-batches?query=best%20crm")).json as { batch: VariantBatch }).batch.id).toBe(batch.id);
      // Running it again queues nothing that completed.
      expect(
        ((await agent.request("POST", `/api/variant-batches/${batch.id}/run`, {})).json as VariantBatch).items.every((i) => i.status === "completed"),
      ).toBe(true);
      // Someone else's batch reads like a missing one.
      const { agent: stranger } = await createProAgent(app, getDb());
      expect((await stranger.request("GET", `/api/variant-batches/${batch.id}`)).status).toBe(404);
    } finally {
      await queue.stop();
    }
  });

  test("generate-variants with executeSearches starts the batch", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent } = await createProAgent(app, getDb());
      const answer = (await agent.request("POST", "/api/generate-variants", { query: "best password manager", iterations: 1, executeSearches: true })).json as {
        batchId: string;
      };
      const done = await finished(agent, answer.batchId);
      expect(done.items).toHaveLength(5);
      expect(done.items.every((item) => item.status === "completed" && item.searchId)).toBe(true);
    } finally {
      await queue.stop();
    }
  });

  test("history and compare match saved searches by query text in any letter case; compare reports the summary, items and what is missing", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    const original = (await agent.api.search({ query: "Best Standing Desk", iterations: 5 })).result;
    const variant = (await agent.api.search({ query: "standing desk for a small office", iterations: 5 })).result;
    expect((await agent.api.listSearches({ query: "best standing desk" })).searches.map((s) => s.id)).toEqual([original.id]);

    expect((await agent.request("GET", "/api/compare")).json).toEqual({ code: "INVALID_INPUT", message: "No queries specified" });
    const report = (
      await agent.request(
        "GET",
        `/api/compare?compareQuery=${encodeURIComponent("best standing desk")}&compareVariants=${encodeURIComponent("STANDING DESK FOR A SMALL OFFICE")}&compareVariants=never%20searched`,
      )
    ).json as CompareReport;
    expect(report.searches.map((s) => [s.role, s.id])).toEqual([
      ["original", original.id],
      ["variant", variant.id],
    ]);
    expect(report.missing).toEqual(["never searched"]);
    expect(report.summary.topProducts.length).toBeGreaterThan(0);
    expect(report.summary.topProducts.length).toBeLessThanOrEqual(5);
    expect(report.summary.uniqueProducts).toBe(report.products.length);
    const both = report.products.find((item) => item.in[original.id] && item.in[variant.id]);
    expect(both?.in[original.id]?.frequency?.n).toBeGreaterThan(0);
    const difference = both?.difference[variant.id];
    expect(difference?.pValue).toBeGreaterThanOrEqual(0);
    expect(difference?.pValue).toBeLessThanOrEqual(1);
    expect(Object.keys(report.fanOut).sort()).toEqual([original.id, variant.id].sort());
  });

  test("compare (ADR 028): an item the summary counts in a search has a provider's tick in that search's column, with how often that provider returned it", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    const original = (await agent.api.search({ query: "best crm for startups", iterations: 5 })).result;
    const variant = (await agent.api.search({ query: "crm for a small agency", iterations: 5 })).result;
    const report = (
      await agent.request("GET", `/api/compare?compareQuery=${encodeURIComponent(original.query)}&compareVariants=${encodeURIComponent(variant.query)}`)
    ).json as CompareReport;
    const ticked = (found: CompareReport["products"][number]["in"][string]) => found.providers.length > 0;
    const kinds = [
      ["products", report.products],
      ["companies", report.companies],
      ["sources", report.sources],
    ] as const;
    const unticked = kinds.flatMap(([kind, items]) =>
      items.flatMap((item) => Object.entries(item.in).flatMap(([searchId, found]) => (ticked(found) ? [] : [`${kind} ${item.name} in ${searchId}`]))),
    );
    expect(unticked).toEqual([]);
    for (const top of report.summary.topProducts) {
      const item = report.products.find((product) => product.name === top.name);
      expect(Object.values(item?.in ?? {}).filter(ticked)).toHaveLength(top.searches);
    }
    for (const [, items] of kinds)
      for (const item of items) for (const found of Object.values(item.in)) for (const id of found.providers) expect(found.returned?.[id]?.n).toBe(5);
  });

  test("the brand lens: settings in the profile (validated), the lens on a saved search, and an override", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    expect(await agent.request("GET", "/api/user/brand-lens").then((r) => r.json)).toEqual({ brand: null, competitors: [] });
    expect((await agent.request("PUT", "/api/user/brand-lens", { brand: { name: "" }, competitors: [] })).status).toBe(400);
    expect((await agent.request("PUT", "/api/user/brand-lens", { brand: { name: "Acme", domains: ["not a domain"] }, competitors: [] })).status).toBe(400);

    const { result } = await agent.api.search({ query: "best noise cancelling headphones", iterations: 5 });
    expect((await agent.request("GET", `/api/search/${result.id}/lens`)).json).toEqual({ lens: null });

    const named = result.models.openai?.products[0]?.name ?? "";
    const saved = await agent.request("PUT", "/api/user/brand-lens", {
      brand: { name: named, aliases: [], domains: [] },
      competitors: [{ name: "Nonexistent Brand Zz" }],
    });
    expect(saved.status).toBe(200);
    const { lens } = (await agent.request("GET", `/api/search/${result.id}/lens`)).json as { lens: LensReport };
    expect(lens.brand.name).toBe(named);
    expect(lens.basis).toBe("iterations");
    const openai = lens.providers.openai;
    expect(openai?.mentionRate.n).toBe(result.stats.openai?.iterations ?? -1);
    expect(openai?.mentionRate.count).toBeGreaterThan(0);
    expect(openai?.shareOfVoice[0]).toMatchObject({ name: named, isBrand: true });

    const override = (await agent.request("GET", `/api/search/${result.id}/lens?brand=${encodeURIComponent("Zzyzx Audio")}`)).json as { lens: LensReport };
    expect(override.lens.brand.name).toBe("Zzyzx Audio");
    expect(override.lens.providers.openai?.mentionRate.count).toBe(0);

    const { agent: stranger } = await createProAgent(app, getDb());
    expect((await stranger.request("GET", `/api/search/${result.id}/lens`)).status).toBe(404);
  });
});
