import { expect, test } from "bun:test";
import type { CreatedToken } from "#src/contract/tokens.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";

// Routes declare who may call them (signedIn, pro, forTokens) and what they take (body, query,
// params); the caller is judged before the input, and a bad input is told in the contract's words.

const ZERO = "00000000-0000-4000-8000-000000000000";

test("who may call is answered before what was sent: 401 to a visitor, 403 to a free account or a token, whatever the body", async () => {
  const database = await openTestDatabase("pglite");
  try {
    const { app } = await createTestApp(database);
    const visitor = createAgent(app);
    const free = createAgent(app);
    await signUp(free, database);
    const { agent: pro } = await createProAgent(app, database);
    const token = ((await pro.request("POST", "/api/tokens", { name: "guards" })).json as CreatedToken).token;
    const broken = [undefined, "[]", '"text"', JSON.stringify({ unexpected: true })];

    for (const body of broken) {
      for (const [method, path] of [
        ["POST", "/api/tokens"],
        ["POST", "/api/verify-subscription"],
        ["POST", "/api/cancel-subscription"],
        ["PUT", "/api/user/brand-lens"],
      ] as const) {
        const answer = await visitor.request(method, path, body);
        expect({ path, body, status: answer.status, json: answer.json }).toEqual({
          path,
          body,
          status: 401,
          json: { code: "NOT_SIGNED_IN", message: "Not signed in" },
        });
      }
      for (const [method, path] of [
        ["PUT", "/api/variants"],
        ["POST", "/api/variant-batches"],
        ["POST", `/api/variant-batches/not-a-uuid/run`],
      ] as const) {
        for (const agent of [visitor, free]) {
          const answer = await agent.request(method, path, body);
          expect({ path, body, status: answer.status, json: answer.json }).toEqual({
            path,
            body,
            status: 403,
            json: { code: "PRO_REQUIRED", message: "Pro subscription required" },
          });
        }
      }
      // A token on a call that needs a browser session: refused, however the body is broken.
      const answer = await visitor.request("POST", "/api/tokens", body, { authorization: `Bearer ${token}` });
      expect({ body, status: answer.status }).toEqual({ body, status: 403 });
      expect((answer.json as { message: string }).message).toContain("needs a browser session");
    }
    for (const path of ["/api/variants?query=", "/api/variant-batches?query=", "/api/variant-batches/not-a-uuid"]) {
      const answer = await free.request("GET", path);
      expect({ path, status: answer.status, json: answer.json }).toEqual({
        path,
        status: 403,
        json: { code: "PRO_REQUIRED", message: "Pro subscription required" },
      });
    }

    // The caller may: then the input is judged, in the contract's words (the first issue, with its field when the text is generic).
    expect((await pro.request("POST", "/api/tokens", { name: " " })).json).toEqual({ code: "INVALID_INPUT", message: "A token name is required" });
    expect((await pro.request("GET", "/api/variants?query=")).json).toEqual({ code: "INVALID_INPUT", message: "query is required" });
    expect((await pro.request("GET", "/api/variant-batches/not-a-uuid")).json).toEqual({ code: "INVALID_INPUT", message: "Batch not found" });
    expect((await pro.request("POST", `/api/variant-batches/${ZERO}/run`, { positions: "all" })).json).toEqual({
      code: "INVALID_INPUT",
      message: 'positions: Invalid type: Expected Array but received "all"',
    });
    // A query string is read as sent: a comma is text, not a list.
    expect((await pro.request("GET", "/api/user/searches?q=crm,%20best")).status).toBe(200);
  } finally {
    await database.close();
  }
});

test("the API reference documents each call's JSON body and its query and path parameters from the schemas the route validates", async () => {
  const database = await openTestDatabase("pglite");
  try {
    const { app } = await createTestApp(database);
    type Operation = {
      requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
      parameters?: Array<{ name: string; in: string; required?: boolean }>;
    };
    const spec = (await createAgent(app).request("GET", "/api/docs/json")).json as { paths: Record<string, Record<string, Operation>> };
    const body = (path: string, method: string) => Object.keys(spec.paths[path]?.[method]?.requestBody?.content ?? {});
    const fields = (path: string, method: string) =>
      Object.keys(spec.paths[path]?.[method]?.requestBody?.content?.["application/json"]?.schema?.properties ?? {});
    expect(body("/api/register", "post")).toEqual(["application/json"]);
    expect(fields("/api/register", "post")).toEqual(["username", "email", "password"]);
    expect(fields("/api/tokens", "post")).toEqual(["name"]);
    const parameters = (path: string, method: string) => (spec.paths[path]?.[method]?.parameters ?? []).map((p) => `${p.in}:${p.name}${p.required ? "!" : ""}`);
    expect(parameters("/api/user/searches", "get")).toEqual(expect.arrayContaining(["query:limit", "query:before", "query:q", "query:provider"]));
    expect(parameters("/api/variants", "get")).toEqual(["query:query!"]);
    expect(parameters("/api/compare", "get")).toEqual(["query:compareQuery", "query:compareVariants"]);
  } finally {
    await database.close();
  }
});
