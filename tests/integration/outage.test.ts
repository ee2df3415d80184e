import { afterAll, expect, test } from "bun:test";
import postgres from "postgres";
import { postgresDatabase } from "#db/client.ts";
import { isDatabaseUnavailable } from "#db/errors.ts";
import { DATABASE_UNAVAILABLE } from "#src/server/http/errors.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";

// When the database cannot serve, callers hear "try again shortly" (503 with Retry-After), not
// "we have a bug" (500), and /healthz stops saying green.

const unreachable = postgresDatabase(postgres("postgres://app:app@127.0.0.1:1/app", { max: 2, connect_timeout: 2, onnotice: () => {} }));
afterAll(() => unreachable.close());

test("PostgreSQL unreachable: the API answers 503 with Retry-After and a message, /healthz is 503 naming the cause, pages still render", async () => {
  const { app } = await createTestApp(unreachable);
  const visitor = createAgent(app);
  for (const [method, path, body] of [
    ["GET", "/api/quota"],
    ["POST", "/api/search", { query: "best crm" }],
    ["POST", "/api/register", { username: "outage", email: "outage@example.com", password: "correct horse battery" }],
  ] as const) {
    const answer = await visitor.request(method, path, body);
    expect({ path, status: answer.status, retryAfter: answer.headers.get("retry-after"), json: answer.json }).toEqual({
      path,
      status: 503,
      retryAfter: "5",
      json: { code: "DATABASE_UNAVAILABLE", message: DATABASE_UNAVAILABLE },
    });
  }
  const health = await visitor.request("GET", "/healthz");
  expect(health.status).toBe(503);
  expect(health.headers.get("retry-after")).toBe("5");
  expect((health.json as { message: string }).message).toStartWith("The database does not accept writes: ");
  const page = await visitor.request("GET", "/");
  expect(page.status).toBeLessThan(500);
  expect(page.text).toContain("<!DOCTYPE html>");
});

test("PGlite gone (closed under the app): 503 on the API and on /healthz, which was 200 before", async () => {
  const database = await openTestDatabase("pglite");
  // Its job queue is never started here (it starts at the first job), so there is nothing to stop first.
  const { app } = await createTestApp(database);
  const visitor = createAgent(app);
  expect((await visitor.request("GET", "/healthz")).json).toEqual({ ok: true, db: "pglite" });
  await database.close();
  expect((await visitor.request("GET", "/healthz")).status).toBe(503);
  const quota = await visitor.request("GET", "/api/quota");
  expect({ status: quota.status, json: quota.json }).toEqual({ status: 503, json: { code: "DATABASE_UNAVAILABLE", message: DATABASE_UNAVAILABLE } });
});

test("what counts as the database being unavailable, as drivers report it", () => {
  const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });
  for (const error of [
    Object.assign(new Error("disk full"), { code: "53100" }),
    wrapped(Object.assign(new Error("could not write"), { code: "58030" })),
    wrapped(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })),
    wrapped(Object.assign(new Error("write CONNECTION_ENDED"), { code: "CONNECTION_ENDED" })),
    Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    wrapped(new Error("ENOSPC: no space left on device, write")),
    wrapped(new Error("PGlite is closed")),
    Object.assign(new Error("cannot execute INSERT in a read-only transaction"), { code: "25006" }),
  ])
    expect({ error: String(error.cause ?? error), unavailable: isDatabaseUnavailable(error) }).toEqual({
      error: String(error.cause ?? error),
      unavailable: true,
    });
  for (const error of [
    Object.assign(new Error("duplicate key"), { code: "23505" }),
    wrapped(Object.assign(new Error("relation does not exist"), { code: "42P01" })),
    new TypeError("x is undefined"),
    "a string",
    null,
  ])
    expect(isDatabaseUnavailable(error)).toBe(false);
});
