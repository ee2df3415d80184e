import { expect, test } from "bun:test";
import type { VariantBatch, VariantSet } from "#src/contract/variants.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

const queries = (set: { variants: Array<{ query: string }> }) => set.variants.map((variant) => variant.query);

describeEachDatabase("variants are written once per query and kept", (getDb) => {
  test("generating again answers the saved set; edits are kept and read back; regenerate writes a new set in its place", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());

    expect(await agent.request("GET", "/api/variants?query=best%20crm")).toMatchObject({ status: 200, json: { set: null } });
    const first = (await agent.request("POST", "/api/generate-variants", { query: "best crm" })).json as VariantSet;
    expect(first.variants).toHaveLength(5);
    expect(first.edited).toBe(false);

    // A reload, a second tab, the CLI: the same set, in any letter case of the query.
    const again = (await agent.request("POST", "/api/generate-variants", { query: "Best CRM" })).json as VariantSet;
    expect(queries(again)).toEqual(queries(first));
    expect(((await agent.request("GET", "/api/variants?query=BEST%20CRM")).json as { set: VariantSet }).set).toMatchObject({
      variants: first.variants,
      edited: false,
    });

    // The person edits one, removes one and adds their own: saved, and read back as they left it.
    const edited = [
      { ...first.variants[0]!, query: "crm my agency would love" },
      ...first.variants.slice(2),
      { query: "crm with a free plan", reasoning: "", own: true },
    ];
    const put = await agent.request("PUT", "/api/variants", { query: "best crm", variants: edited });
    expect(put.status).toBe(200);
    const read = ((await agent.request("GET", "/api/variants?query=best%20crm")).json as { set: VariantSet }).set;
    expect(read.edited).toBe(true);
    expect(queries(read)).toEqual(["crm my agency would love", ...queries(first).slice(2), "crm with a free plan"]);
    expect(read.variants.at(-1)).toMatchObject({ own: true });
    expect(queries((await agent.request("POST", "/api/generate-variants", { query: "best crm" })).json as VariantSet)).toEqual(queries(read));

    // A query may be blank while it is being typed: kept as typed.
    expect((await agent.request("PUT", "/api/variants", { query: "best crm", variants: [{ query: "" }, ...edited.slice(1)] })).status).toBe(200);

    const fresh = (await agent.request("POST", "/api/generate-variants", { query: "best crm", regenerate: true })).json as VariantSet;
    expect(fresh.edited).toBe(false);
    expect(queries(fresh)).not.toEqual(queries(read));
    expect(((await agent.request("GET", "/api/variants?query=best%20crm")).json as { set: VariantSet }).set.variants).toEqual(fresh.variants);
  });

  test("once the set runs as a batch it links to it, its queries are fixed (409), and the page finds the batch again", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent } = await createProAgent(app, getDb());
      const set = (await agent.request("POST", "/api/generate-variants", { query: "best vpn" })).json as VariantSet;
      const batch = (
        await agent.request("POST", "/api/variant-batches", { query: "best vpn", variants: set.variants.map(({ query, reasoning }) => ({ query, reasoning })) })
      ).json as VariantBatch;
      const current = ((await agent.request("GET", "/api/variants?query=best%20vpn")).json as { set: VariantSet }).set;
      expect(current.batchId).toBe(batch.id);
      expect(queries(current)).toEqual(queries(set));
      const refused = await agent.request("PUT", "/api/variants", { query: "best vpn", variants: [{ query: "another" }] });
      expect(refused).toMatchObject({ status: 409, json: { message: expect.stringContaining("regenerate") } });
    } finally {
      await queue.stop();
    }
  });

  test("bad input is a 400 with a message; edits before any set are a 404; other users never see the set", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    const { agent: other } = await createProAgent(app, getDb());
    expect((await agent.request("PUT", "/api/variants", { query: "nothing yet", variants: [{ query: "x" }] })).status).toBe(404);
    for (const [method, path, body] of [
      ["GET", "/api/variants", undefined],
      ["PUT", "/api/variants", { query: "best crm", variants: [] }],
      ["PUT", "/api/variants", { query: "best crm", variants: [{ query: 3 }] }],
      ["PUT", "/api/variants", { query: "best crm", variants: [{ query: "x".repeat(501) }] }],
      ["POST", "/api/generate-variants", { query: "best crm", regenerate: "yes" }],
    ] as const) {
      const answer = await agent.request(method, path, body);
      expect({ path, status: answer.status, message: typeof (answer.json as { message?: unknown })?.message }).toEqual({
        path,
        status: 400,
        message: "string",
      });
    }
    await agent.request("POST", "/api/generate-variants", { query: "best crm" });
    expect(((await other.request("GET", "/api/variants?query=best%20crm")).json as { set: unknown }).set).toBeNull();
  });
});
