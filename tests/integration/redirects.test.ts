import { afterAll, expect, test } from "bun:test";
import { createRedirectResolver } from "#src/server/services/providers/redirects.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";
import { startSimulator } from "#dev/simulators/index.ts";

// Gemini's citations are URLs from outside. The server follows grounding redirects only on
// Google's redirect origin (or the simulator's, for a simulated Gemini), so a crafted citation
// cannot make it fetch an address of an attacker's choosing.

const hits: string[] = [];
const target = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request) {
    hits.push(new URL(request.url).pathname);
    return new Response(null, { status: 302, headers: { location: "https://example.com/landed" } });
  },
});
const sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
afterAll(async () => {
  await target.stop(true);
  await sim.stop();
});

test("a grounding redirect on another origin is never fetched; on an allowed one it resolves", async () => {
  const crafted = `http://127.0.0.1:${target.port}/grounding-api-redirect/steal-metadata`;
  expect(await createRedirectResolver()(crafted)).toBeNull();
  expect(await createRedirectResolver()(`https://vertexaisearch.cloud.google.com.evil.example/grounding-api-redirect/x`)).toBeNull();
  expect(hits).toEqual([]);
  expect(await createRedirectResolver({ origins: [`http://127.0.0.1:${target.port}`] })(crafted)).toBe("https://example.com/landed");
  expect(hits).toEqual(["/grounding-api-redirect/steal-metadata"]);
});

test("a live Gemini pointed at another server keeps its redirects unresolved unless GEMINI_REDIRECT_ORIGINS names that origin", async () => {
  const live = { SIMULATE_PROVIDERS: "off", GEMINI_API_KEY: "live-key-for-test", GEMINI_BASE_URL: sim.baseUrls.gemini };
  const database = await openTestDatabase("pglite");
  const search = async (env: Record<string, string>) => {
    const { app } = await createTestApp(database, { simulator: sim, env });
    const { result } = await createAgent(app).api.search({ query: "best crm" });
    return (result.models.gemini?.sources ?? []).map((s) => s.url);
  };
  const guarded = await search(live);
  expect(guarded.length).toBeGreaterThan(0);
  for (const url of guarded) expect(url).toStartWith(`${sim.origin}/grounding-api-redirect/`);
  const trusted = await search({ ...live, GEMINI_REDIRECT_ORIGINS: `https://vertexaisearch.cloud.google.com, ${sim.origin}` });
  for (const url of trusted) expect(url).not.toContain("grounding-api-redirect");
  await database.close();
}, 60_000);
