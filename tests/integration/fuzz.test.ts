import { afterAll, expect, test } from "bun:test";
import * as v from "valibot";
import { ErrorBody } from "#src/contract/errors.ts";
import type { CreatedToken } from "#src/contract/tokens.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { BASE, createTestApp } from "#tests/support/app.ts";
import { databaseKinds, openTestDatabase } from "#tests/support/databases.ts";

/*
 * A bounded, seeded fuzz of every route in the OpenAPI document, plus the pages, /healthz and the
 * Stripe simulator's relay: well-formed and broken bodies, odd methods, path ids, query values,
 * content types, cookies, tokens and forwarded addresses, as anonymous, free, Pro and token
 * callers. It fails on any 5xx, on an error the app logs as unhandled (a stream that had already
 * answered 200 cannot change its status), and on an /api answer that is not JSON `{ code, message }`
 * (a code of the contract's list) when it refuses. FUZZ_SEED and FUZZ_REQUESTS change the run; the seed is printed so a failure replays.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 4000);

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};
type Operation = { method: string; path: string; body?: Schema };

function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

const STRINGS = [
  "",
  " ",
  "a",
  "best crm",
  "x".repeat(501),
  "x".repeat(5000),
  "ünïcödé 日本語 🚀",
  "\u0000\u0001\u001f",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
  "\ud800",
  "null",
  "1e309",
  "NaN",
  "-1",
  "0",
];
const NUMBERS = [0, -1, 1, 5, 100, 101, 1e9, -1e9, 0.5, Number.MAX_SAFE_INTEGER, 1e308];
const IDS = [
  "abc",
  "00000000-0000-0000-0000-000000000000",
  "9b2f1c1e-3c1a-4a7e-9d51-000000000000",
  "-1",
  "0",
  "%2e%2e",
  "x".repeat(2000),
  "日本",
  "null",
  "undefined",
  "1;DROP TABLE searches",
  "%ff%fe",
];
const QUERY_NAMES = ["limit", "before", "query", "q", "variant", "id", "brand", "iterations", "format", "returnUrl", "session_id", "__proto__", "constructor"];
const QUERY_VALUES = [
  "",
  "1",
  "0",
  "-5",
  "101",
  "abc",
  "2026-01-01T00:00:00Z",
  "2026-01-01T00:00:00+05",
  "0000-01-01T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "%",
  "%ZZ",
  "x".repeat(3000),
  "best crm",
  "[]",
  "{}",
];
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/octet-stream",
  "application/vnd.api+json",
  "garbage/\u0000",
  "",
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "FOO"];
const PAGES = [
  "/",
  "/auth",
  "/user/profile",
  "/user/subscription",
  "/history",
  "/compare",
  "/variants",
  "/checkout",
  "/upgrade",
  "/search/abc",
  // Pages with a path parameter: filled like the API's ids, malformed percent-encoding included.
  "/search/{id}",
  "/trackers/{id}",
  "/trackers/{id}/edit",
  "/shared/{token}",
  "/no/such/page",
  "/assets/missing.js",
  "/assets/../../package.json",
  "/%00",
  "/api",
  "/api/",
  "/api/docs",
  "/stripe-sim/v1/payment_intents/pi_x",
  "/stripe-sim/js/v3.js",
  "/stripe-sim/v1/payment_intents/pi_x/confirm",
  "/healthz",
];

function generate(schema: Schema | undefined, r: ReturnType<typeof random>, depth = 0): unknown {
  if (!schema || depth > 4) return r.pick(STRINGS);
  if (schema.enum) return r.pick(schema.enum);
  if (schema.anyOf) return generate(r.pick(schema.anyOf), r, depth + 1);
  const type = Array.isArray(schema.type) ? r.pick(schema.type) : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {}))
        if (schema.required?.includes(key) || r.chance(0.6)) out[key] = generate(child, r, depth + 1);
      return out;
    }
    case "array":
      return Array.from({ length: r.int(Math.min(schema.maxItems ?? 4, 4) + 1) }, () => generate(schema.items, r, depth + 1));
    case "string": {
      const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 20, 1 + r.int(20)));
      return r.chance(0.7) ? "best crm for startups".padEnd(length, "x").slice(0, length) : r.pick(STRINGS);
    }
    case "integer":
    case "number":
      return r.chance(0.7) ? Math.max(schema.minimum ?? 0, Math.min(schema.maximum ?? 10, 1)) : r.pick(NUMBERS);
    case "boolean":
      return r.chance(0.5);
    case "null":
      return null;
    default:
      return r.pick(STRINGS);
  }
}

/** Breaks a well-formed value in one of the ways clients do. */
function mutate(value: unknown, r: ReturnType<typeof random>): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(out);
    const key = keys.length ? r.pick(keys) : "extra";
    switch (r.int(6)) {
      case 0:
        delete out[key];
        break;
      case 1:
        out[key] = r.pick<unknown>([null, 42, "text", [], {}, true, -1, 1e309, "x".repeat(20_000)]);
        break;
      case 2:
        out[key] = mutate(out[key], r);
        break;
      case 3:
        out["__proto__"] = { isPro: true };
        break;
      case 4:
        return r.pick<unknown>([[], null, "string", 7, [value]]);
      default:
        out[r.pick(["extra", "constructor", "toString", ""])] = r.pick(STRINGS);
    }
    return out;
  }
  if (Array.isArray(value)) return r.chance(0.5) ? [...value, ...value, ...value] : value.map((v) => mutate(v, r));
  return r.pick<unknown>([null, {}, [], r.pick(STRINGS), r.pick(NUMBERS), true]);
}

function bodyFor(operation: Operation | undefined, r: ReturnType<typeof random>): string | undefined {
  switch (r.int(10)) {
    case 0:
      return undefined;
    case 1:
      return r.pick(["{", "[1,", "}{", '{"a":', "\u0000", "null", "true", "[]", '"str"', "1e999", '{"query":"\\ud800"}']);
    case 2:
      return "query=best+crm&iterations=5";
    default: {
      const value = generate(operation?.body, r);
      return JSON.stringify(r.chance(0.5) ? value : mutate(value, r));
    }
  }
}

function fillPath(path: string, r: ReturnType<typeof random>, known: string[]): string {
  return path.replace(/\{[^}]+\}/g, () =>
    encodeURIComponent(known.length && r.chance(0.3) ? r.pick(known) : r.pick(IDS)).replace(/%25/g, r.chance(0.5) ? "%" : "%25"),
  );
}

function queryFor(r: ReturnType<typeof random>): string {
  if (r.chance(0.5)) return "";
  const parts = Array.from(
    { length: 1 + r.int(3) },
    () => `${r.pick(QUERY_NAMES)}=${r.chance(0.8) ? encodeURIComponent(r.pick(QUERY_VALUES)) : r.pick(QUERY_VALUES)}`,
  );
  return `?${parts.join("&")}`;
}

function headersFor(r: ReturnType<typeof random>, token: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const contentType = r.pick(CONTENT_TYPES);
  if (contentType && !/\u0000/.test(contentType)) headers["content-type"] = contentType;
  if (r.chance(0.1))
    headers.cookie = r.pick(["session=garbage", "anon=not.signed", "daily_searches=%ZZ", "session=a.b.c; anon=x", `session=${"x".repeat(3000)}`, "=;=;;"]);
  if (r.chance(0.1))
    headers.authorization = r.pick(["Bearer aisc_nope", "Bearer ", "Basic dXNlcjpwYXNz", `Bearer ${token}`, "Bearer pk_test_x", "Bearer " + "a".repeat(5000)]);
  if (r.chance(0.1)) headers["x-forwarded-for"] = r.pick(["not-an-ip", "999.1.1.1", "::1, ,", "", "2001:db8::1", "1.2.3.4, 5.6.7.8"]);
  if (r.chance(0.05)) headers.origin = r.pick(["https://evil.example", "null", "garbage"]);
  if (r.chance(0.05)) headers["x-forwarded-proto"] = r.pick(["https", "gopher", ""]);
  if (r.chance(0.05)) headers["stripe-signature"] = r.pick(["t=1,v1=00", "garbage", ""]);
  return headers;
}

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

for (const kind of databaseKinds) {
  test(`fuzz [${kind}]: ${REQUESTS} seeded requests over every documented route, the pages and /healthz, and no answer is a 5xx`, async () => {
    const database = await openTestDatabase(kind);
    const { app, queue } = await createTestApp(database);
    // A third of the requests go over a real socket: Bun's server runs Elysia's compiled handler, app.handle another path.
    app.listen({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: Number.MAX_SAFE_INTEGER });
    const origin = `http://127.0.0.1:${app.server?.port}`;
    cleanup.push(async () => {
      await app.stop(true);
      await queue.stop();
      await database.close();
    });
    const docs = (await (await app.handle(new Request(`${BASE}/api/docs/json`))).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> }; responses?: Record<string, unknown> }>>;
    };
    // Every call documents its error answers as the contract's error body.
    const undocumented = Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => !op.responses?.default)
        .map(([method]) => `${method} ${path}`),
    );
    expect(undocumented).toEqual([]);
    const operations: Operation[] = Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, body: op.requestBody?.content?.["application/json"]?.schema })),
    );
    expect(operations.length).toBeGreaterThan(25);

    // Callers: anonymous, a free account, a Pro account, and a token.
    const free = createAgent(app);
    await signUp(free, database);
    const { agent: pro } = await createProAgent(app, database);
    const created = (await pro.request("POST", "/api/tokens", { name: "fuzz" })).json as CreatedToken;
    const { result } = await pro.api.search({ query: "best crm" });
    const known = [result.id];
    const callers = [createAgent(app), free, pro, createAgent(app, { ip: null })];

    const unhandled: string[] = [];
    const logError = console.error;
    console.error = (...args: unknown[]) => {
      unhandled.push(
        args
          .map((a) => (a instanceof Error ? `${a.message} ${String((a as { cause?: unknown }).cause ?? "")}` : String(a)))
          .join(" ")
          .slice(0, 300),
      );
      logError(...args);
    };
    cleanup.push(async () => {
      console.error = logError;
    });
    const rssBefore = process.memoryUsage().rss;
    const r = random(SEED + (kind === "postgres" ? 1 : 0));
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let peakRss = process.memoryUsage().rss;
    for (let i = 0; i < REQUESTS; i++) {
      const documented = r.chance(0.8);
      const operation = documented ? r.pick(operations) : undefined;
      const method = operation && r.chance(0.8) ? operation.method : r.pick(METHODS);
      const path = fillPath(operation ? operation.path : r.pick(PAGES), r, known);
      const url = `${path}${queryFor(r)}`;
      const body = method === "GET" || method === "HEAD" ? undefined : bodyFor(operation, r);
      const headers = headersFor(r, created.token);
      const caller = r.pick(callers);
      const logged = unhandled.length;
      const label = `${method} ${url.slice(0, 120)} body=${(body ?? "").slice(0, 80)} headers=${JSON.stringify(headers).slice(0, 160)}`;
      let response: Response;
      try {
        if (r.chance(0.33)) {
          const jar = [...caller.jar].map(([k, v]) => `${k}=${v}`).join("; ");
          const socketHeaders = {
            ...(jar && !headers.cookie ? { cookie: jar } : {}),
            ...(caller.ip && !headers["x-forwarded-for"] ? { "x-forwarded-for": caller.ip } : {}),
            ...headers,
          };
          response = await fetch(origin + url, { method, headers: socketHeaders, body, redirect: "manual" });
        } else response = await caller.fetch(BASE + url, { method, headers, body });
      } catch (error) {
        // The Request constructor refusing what we made (e.g. a method it forbids) is not an answer.
        if (error instanceof TypeError) continue;
        throw error;
      }
      const text = await response.text();
      if (unhandled.length > logged) failures.push(`logged an unhandled error: ${label} → ${unhandled.slice(logged).join(" | ")}`);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failures.push(`${response.status} ${label} → ${text.slice(0, 200)}`);
      else if (path.startsWith("/api/") && response.status >= 400 && method !== "HEAD") {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        // Every refusal names its code from the contract's list, beside the message.
        if (!v.is(ErrorBody, body)) failures.push(`${response.status} without { code, message }: ${label} → ${text.slice(0, 200)}`);
      }
      if (i % 50 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    console.error = logError;
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(" ");
    console.log(
      `fuzz [${kind}] seed ${SEED}: ${REQUESTS} requests; statuses ${histogram}; RSS ${Math.round(rssBefore / 1024 / 1024)} MB before, peak ${Math.round(peakRss / 1024 / 1024)} MB`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);
}
