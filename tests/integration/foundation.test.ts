import { expect, test } from "bun:test";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { createTestApp, get } from "#tests/support/app.ts";

describeEachDatabase("foundation", (getDb, kind) => {
  test("GET /healthz answers after a real database query", async () => {
    const { app } = await createTestApp(getDb());
    const response = await get(app, "/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: kind });
  });

  test("GET / is server-rendered HTML with the dashboard heading and is never cached", async () => {
    const { app } = await createTestApp(getDb());
    const response = await get(app, "/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain("<h1");
    expect(html).toContain("AI Search Comparison");
    expect(html).toContain("Compare results across multiple AI models with a single search");
    expect(html).toContain("What would you like to search?");
    expect(html).toMatch(/<script type="module" src="\/assets\/entry\.client-[\w-]+\.js"/);
  });

  test("an unknown path renders the exact 404 screen with status 404", async () => {
    const { app } = await createTestApp(getDb());
    const response = await get(app, "/does-not-exist");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("404 Page Not Found");
    expect(html).toContain("The page you&#x27;re looking for doesn&#x27;t exist or may have been moved.");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
  });

  test("a page path whose parameter is not valid percent-encoding is the 404 screen, not a 500", async () => {
    const { app } = await createTestApp(getDb());
    for (const path of ["/search/%E0%A4%A", "/trackers/%ZZ", "/trackers/%C0%AF/edit", "/shared/%ff%fe"]) {
      const response = await get(app, path);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("404 Page Not Found");
    }
  });

  test("every spec route is routed to a page, not the 404 screen", async () => {
    const { app } = await createTestApp(getDb());
    for (const path of [
      "/search/abc",
      "/user/profile",
      "/user/history",
      "/user/subscription",
      "/auth",
      "/auth?from=upgrade",
      "/checkout",
      "/variants?query=crm&iterations=5",
      "/compare?compareQuery=a",
      "/upgrade",
    ]) {
      const response = await get(app, path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(await response.text()).not.toContain("404 Page Not Found");
    }
  });

  test("hashed assets are served with long-lived immutable caching; unknown ones 404", async () => {
    const { app } = await createTestApp(getDb());
    const html = await (await get(app, "/")).text();
    const script = /src="(\/assets\/entry\.client-[\w-]+\.js)"/.exec(html)?.[1];
    const css = /href="(\/assets\/app-[\w-]+\.css)"/.exec(html)?.[1];
    for (const path of [script, css]) {
      expect(path).toBeString();
      const response = await get(app, path ?? "");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toContain("max-age=31536000");
      expect(response.headers.get("cache-control")).toContain("immutable");
    }
    expect((await get(app, "/assets/nope-123.js")).status).toBe(404);
  });

  test("assets are sent precompressed in the best encoding the browser accepts", async () => {
    const { app } = await createTestApp(getDb());
    const html = await (await get(app, "/")).text();
    const script = /src="(\/assets\/entry\.client-[\w-]+\.js)"/.exec(html)?.[1] ?? "";
    const plain = await get(app, script);
    const source = await plain.text();
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-type")).toContain("javascript");

    const gzip = await get(app, script, { headers: { "accept-encoding": "gzip, deflate" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.headers.get("vary")).toBe("accept-encoding");
    expect(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())).length).toBe(Buffer.byteLength(source));

    const brotli = await get(app, script, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    const compressed = Buffer.from(await brotli.arrayBuffer());
    expect((await import("node:zlib")).brotliDecompressSync(compressed).toString()).toBe(source);
    expect(compressed.length).toBeLessThan(Buffer.byteLength(source) / 2);
  });

  test("an unknown API path answers JSON 404 with a message", async () => {
    const { app } = await createTestApp(getDb());
    const response = await get(app, "/api/nothing-here", { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: "NOT_FOUND", message: "Not found: POST /api/nothing-here" });
  });
});
