import { afterAll, beforeAll, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { Database } from "#db/client.ts";
import { createTestApp } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export type BrowserHarness = {
  baseUrl: string;
  browser: Browser;
  database: Database;
  /** A page whose console errors and uncaught exceptions fail the test (hydration warnings included). */
  newPage(options?: Parameters<Browser["newContext"]>[0]): Promise<Page>;
};

/** Starts the real server on a loopback port and a headless Chromium, for one e2e file. */
export function useBrowser(): () => BrowserHarness {
  let harness: BrowserHarness | undefined;
  const contexts: Array<{ context: BrowserContext; errors: string[] }> = [];
  let stopServer: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const database = await openTestDatabase("pglite");
    const { app } = await createTestApp(database);
    app.listen({ port: 0, hostname: "127.0.0.1" });
    const baseUrl = `http://127.0.0.1:${app.server?.port}`;
    stopServer = async () => {
      await app.stop(true);
      await database.close();
    };
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    harness = {
      baseUrl,
      browser,
      database,
      async newPage(options) {
        const context = await browser.newContext({ baseURL: baseUrl, ...options });
        const errors: string[] = [];
        contexts.push({ context, errors });
        const page = await context.newPage();
        page.on("console", (message) => {
          if (message.type() !== "error") return;
          // A deliberate visit to a 404 page logs its own status; any other failed resource counts.
          if (message.text().startsWith("Failed to load resource") && message.location().url === page.url()) return;
          errors.push(message.text());
        });
        page.on("pageerror", (error) => errors.push(error.message));
        return page;
      },
    };
  }, 60_000);

  afterAll(async () => {
    const errors = contexts.flatMap((c) => c.errors);
    for (const { context } of contexts) await context.close();
    await harness?.browser.close();
    await stopServer?.();
    expect(errors).toEqual([]);
  }, 30_000);

  return () => {
    if (!harness) throw new Error("browser harness not started");
    return harness;
  };
}

/** Resolves once React has hydrated the page (App marks <html data-hydrated>). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Serious and critical axe-core violations on the current page, as "rule: target" lines. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    type AxeResult = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run(): Promise<AxeResult> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}
