import { expect, test } from "bun:test";
import { createAgent } from "#tests/support/agent.ts";
import { BASE, createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase, openTestDatabase } from "#tests/support/databases.ts";

// Requests no honest client sends: oversized bodies, methods a path does not take, values that
// pass a format check but name no real moment. Each gets a 4xx that says what is wrong, in the
// format of where it was sent (JSON on /api, a page elsewhere), and never a 5xx.

const KB = 1024;

describeEachDatabase("bad input: bodies, methods and values", (getDb) => {
  test("every JSON call refuses a body over its limit with 413 and a message, whether the length is declared or streamed", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const big = JSON.stringify({ username: "x".repeat(17 * KB), password: "y" });
    for (const path of ["/api/login", "/api/register", "/api/search", "/api/search/stream", "/api/tokens", "/api/generate-variants", "/api/cancel-search"]) {
      const declared = await visitor.request("POST", path, big, { "content-length": String(big.length) });
      expect({ path, status: declared.status, json: declared.json }).toEqual({
        path,
        status: 413,
        json: { code: "PAYLOAD_TOO_LARGE", message: "The request body is too large: at most 16 KB" },
      });
      // No Content-Length: the body is counted as it arrives and dropped at the limit.
      const streamed = await app.handle(new Request(BASE + path, { method: "POST", headers: { "content-type": "application/json" }, body: streamOf(big) }));
      expect({ path, status: streamed.status, json: await streamed.json() }).toEqual({
        path,
        status: 413,
        json: { code: "PAYLOAD_TOO_LARGE", message: "The request body is too large: at most 16 KB" },
      });
    }
    // A declared length alone is enough: nothing is read.
    const declaredOnly = await app.handle(
      new Request(`${BASE}/api/login`, { method: "POST", headers: { "content-type": "application/json", "content-length": String(10 ** 12) }, body: "{}" }),
    );
    expect(declaredOnly.status).toBe(413);
    const garbage = await app.handle(new Request(`${BASE}/api/login`, { method: "POST", headers: { "content-length": "12abc" }, body: "{}" }));
    expect(await garbage.json()).toEqual({ code: "INVALID_INPUT", message: "Content-Length must be a number of bytes" });
  });

  test("the brand lens, variant batches and Stripe's webhook take larger bodies, each up to its own limit", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const lens = JSON.stringify({ brand: { name: "Acme", aliases: [], domains: [] }, competitors: [], padding: "x".repeat(40 * KB) });
    // Within 64 KB: read and judged on its content (401: not signed in), not on its size.
    expect((await visitor.request("PUT", "/api/user/brand-lens", lens)).status).toBe(401);
    expect((await visitor.request("PUT", "/api/user/brand-lens", lens + " ".repeat(30 * KB))).status).toBe(413);
    const event = JSON.stringify({ id: "evt_1", type: "invoice.paid", data: { object: { lines: "x".repeat(200 * KB) } } });
    const webhook = await visitor.request("POST", "/api/stripe/webhook", event, { "stripe-signature": "t=1,v1=00" });
    expect(webhook.status).toBe(400);
    expect(webhook.json).not.toEqual({ code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("too large") });
    const tooBig = await visitor.request("POST", "/api/stripe/webhook", event + " ".repeat(60 * KB), { "stripe-signature": "t=1,v1=00" });
    expect({ status: tooBig.status, json: tooBig.json }).toEqual({
      status: 413,
      json: { code: "PAYLOAD_TOO_LARGE", message: "The request body is too large: at most 256 KB" },
    });
  });

  test("unreadable JSON is a 400 with a message; an empty JSON body names the first missing field", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    for (const body of ["{", "[1,", '{"username": }', "\u0000"]) {
      const answer = await visitor.request("POST", "/api/login", body);
      expect({ body, status: answer.status, json: answer.json }).toEqual({
        body,
        status: 400,
        json: { code: "INVALID_INPUT", message: "The request body is not valid JSON" },
      });
    }
    // Text the database cannot keep (NUL; a lone surrogate in jsonb) is refused wherever it is, before any work.
    for (const body of ['{"query":"best\\u0000crm"}', '{"query":"\\ud800"}', '{"query":"ok","options":{"\\udc00":1}}']) {
      const answer = await visitor.request("POST", "/api/search", body);
      expect({ body, status: answer.status, json: answer.json }).toEqual({
        body,
        status: 400,
        json: { code: "INVALID_INPUT", message: "Text must be valid Unicode, without NUL characters" },
      });
    }
    expect((await visitor.request("GET", "/api/user/searches?query=a%00b")).status).toBe(400);
    expect(await visitor.api.quota()).toMatchObject({ used: 0 });
    const empty = await visitor.request("POST", "/api/login", "", { "content-type": "application/json" });
    expect(empty.status).toBe(400);
    expect((empty.json as { message: string }).message).toBeString();
  });

  test("pages are read, never written: another method gets the page with 405 and Allow, OPTIONS a 204, an unknown path the 404 page", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    for (const [method, path] of [
      ["POST", "/"],
      ["PUT", "/auth"],
      ["DELETE", "/user/profile"],
      ["PATCH", "/compare"],
    ] as const) {
      const answer = await visitor.request(method, path, { anything: true });
      expect({ method, path, status: answer.status, allow: answer.headers.get("allow") }).toEqual({ method, path, status: 405, allow: "GET, HEAD, OPTIONS" });
      expect(answer.headers.get("content-type")).toContain("text/html");
      expect(answer.text).toContain("<!DOCTYPE html>");
    }
    const options = await visitor.request("OPTIONS", "/");
    expect({ status: options.status, allow: options.headers.get("allow"), body: options.text }).toEqual({ status: 204, allow: "GET, HEAD, OPTIONS", body: "" });
    const unknown = await visitor.request("POST", "/no/such/page");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("404 Page Not Found");
  });

  test("on the API, an unknown path is a JSON 404 for every method; a known path with another method is 405 with Allow; OPTIONS names the methods", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH"]) {
      const answer = await visitor.request(method, "/api/no-such-call");
      expect({ method, status: answer.status, json: answer.json }).toEqual({
        method,
        status: 404,
        json: { code: "NOT_FOUND", message: `Not found: ${method} /api/no-such-call` },
      });
    }
    const patch = await visitor.request("PATCH", "/api/search");
    expect({ status: patch.status, allow: patch.headers.get("allow"), json: patch.json }).toEqual({
      status: 405,
      allow: "POST, OPTIONS",
      json: { code: "METHOD_NOT_ALLOWED", message: "Method not allowed: PATCH /api/search (allowed: POST, OPTIONS)" },
    });
    expect((await visitor.request("PUT", "/api/search/some-id")).headers.get("allow")).toBe("GET, PATCH, DELETE, HEAD, OPTIONS");
    const health = await visitor.request("DELETE", "/healthz");
    expect({ status: health.status, allow: health.headers.get("allow") }).toEqual({ status: 405, allow: "GET, HEAD, OPTIONS" });
    const options = await visitor.request("OPTIONS", "/api/tokens");
    expect({ status: options.status, allow: options.headers.get("allow") }).toEqual({ status: 204, allow: "POST, GET, HEAD, OPTIONS" });
  });

  test("a history cursor must name a real moment: offsets without minutes, impossible dates and year 0000 are 400, not a database error", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    await visitor.api.register({ username: `cursor${process.pid}`, email: `cursor${process.pid}@example.com`, password: "correct horse battery" });
    for (const before of ["2026-01-01T00:00:00+05", "2026-01-01T00:00:00-23", "0000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z"]) {
      const answer = await visitor.request("GET", `/api/user/searches?before=${encodeURIComponent(before)}`);
      expect({ before, status: answer.status, json: answer.json }).toEqual({
        before,
        status: 400,
        json: { code: "INVALID_INPUT", message: "before must be an ISO timestamp" },
      });
    }
    for (const before of ["2024-02-29T00:00:00Z", "2026-01-01T00:00:00+05:30", "2026-01-01T00:00:00.123Z"]) {
      expect((await visitor.request("GET", `/api/user/searches?before=${encodeURIComponent(before)}`)).status).toBe(200);
    }
  });
});

test("twelve concurrent 100 MB bodies to /api/login over real sockets: all 413 before reading, and the server's memory stays put", async () => {
  const database = await openTestDatabase("pglite");
  const { app } = await createTestApp(database);
  app.listen({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: Number.MAX_SAFE_INTEGER });
  const port = app.server?.port ?? 0;
  try {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const statuses = await Promise.all(Array.from({ length: 12 }, () => postHuge(port, "/api/login", 100 * 1024 * KB)));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(`12 concurrent 100 MB bodies: statuses ${statuses.join(",")}; RSS ${mb(before)} MB before, peak ${mb(peak)} MB`);
    expect(statuses).toEqual(Array(12).fill(413));
    // Reading them would take 1.2 GB; refusing them takes next to nothing.
    expect(peak - before).toBeLessThan(200 * 1024 * KB);
    // Ordinary bodies over the same socket are read as usual (Bun's compiled handler, not app.handle).
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "nobody", password: "wrong password" }),
    });
    expect(login.status).toBe(401);
    const noBody = await fetch(`http://127.0.0.1:${port}/api/cancel-search`, { method: "POST" });
    expect(await noBody.json()).toEqual({ cancelled: false });
  } finally {
    await app.stop(true);
    await database.close();
  }
}, 60_000);

function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 4096));
      offset += 4096;
    },
  });
}

/** Declares `size` bytes and keeps sending zeros until the server answers; the status it answered. */
async function postHuge(port: number, path: string, size: number): Promise<number> {
  const { promise, resolve, reject } = Promise.withResolvers<number>();
  let answer = "";
  let done = false;
  const chunk = new Uint8Array(64 * KB).fill(0x20);
  let sent = 0;
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_socket, data) {
        answer += new TextDecoder().decode(data);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
        if (status && !done) {
          done = true;
          resolve(Number(status));
          _socket.end();
        }
      },
      drain(s) {
        while (!done && sent < size && s.write(chunk) === chunk.length) sent += chunk.length;
      },
      close() {
        if (!done) reject(new Error(`closed without an answer after ${sent} bytes`));
      },
      error(_s, error) {
        if (!done) reject(error);
      },
    },
  });
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
  while (!done && sent < size && socket.write(chunk) === chunk.length) sent += chunk.length;
  return promise;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
