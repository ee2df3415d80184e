import { afterAll, beforeAll, expect } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { eq, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { users } from "#db/schema.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { startSimulator, type Simulator, type SimulatorOptions } from "#dev/simulators/index.ts";
import { grantPro, newAccount } from "#tests/support/accounts.ts";
import { nextTestIp } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export type ContextOptions = Parameters<Browser["newContext"]>[0];

/** A headless Chromium with the harness's flags (also for tests that serve their own pages, without the app). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

export type PageOptions = {
  /**
   * Console errors this page is expected to log (e.g. "Failed to load resource … 404" for a
   * deliberate request of a missing API resource); any other console error still fails the file.
   */
  allowConsoleErrors?: RegExp[];
};

export type BrowserHarness = {
  baseUrl: string;
  browser: Browser;
  database: Database;
  /** The provider simulator the app talks to: its request log, faults and latency. */
  simulator: Simulator;
  /** A page whose console errors and uncaught exceptions fail the test (hydration warnings included). */
  newPage(options?: ContextOptions, pageOptions?: PageOptions): Promise<Page>;
  /**
   * Registers a fresh account through the API from the page (its browser context keeps the
   * session cookie) and makes it Pro. The page is left where it was; reload to see the Pro state.
   */
  signInAsPro(page: Page): Promise<{ username: string; email: string; password: string; id: string }>;
};

export type BrowserOptions = {
  /**
   * This file's own simulator (started and stopped with the harness) instead of the one shared by
   * test apps, for tests that change its latency or inject faults. Latency defaults to fixed 5 ms.
   */
  simulator?: SimulatorOptions;
  /** The app's retry policy for provider calls (default: the fast test policy). */
  retry?: RetryPolicy;
  /** Extra app environment (e.g. SEARCH_CONCURRENCY). */
  env?: Record<string, string>;
  /**
   * Each browser context gets its own client address (X-Forwarded-For, trusted by test apps),
   * unless its options set one: anonymous free quotas are counted per network, so pages of one
   * file would otherwise share 5 searches a day.
   */
  distinctAddresses?: boolean;
};

/** Starts the real server on a loopback port and a headless Chromium, for one e2e file. */
export function useBrowser(options: BrowserOptions = {}): () => BrowserHarness {
  let harness: BrowserHarness | undefined;
  const contexts: Array<{ context: BrowserContext; errors: string[] }> = [];
  let stopServer: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const database = await openTestDatabase("pglite");
    const ownSimulator = options.simulator ? startSimulator({ latency: { kind: "fixed", ms: 5 }, ...options.simulator }) : undefined;
    // Every page of a file comes from one loopback address, like a large office behind one NAT:
    // the per-network pools and registrations (ADR 015, tests/integration/abuse.test.ts) are
    // raised so one file's many people fit, as an operator with such an audience would.
    const env = {
      FREE_NETWORK_DAILY_SEARCHES: "10000",
      FREE_NETWORK_MEMBER_SEARCHES: "10000",
      FREE_NETWORK_DAILY_REGISTRATIONS: "10000",
      FREE_NETWORK_REGISTRATION_ATTEMPTS: "10000",
      // Providers are checked once, at start, as the server does (ADR 040); no re-check mid-file.
      PROVIDER_CHECK_MINUTES: "0",
      ...options.env,
    };
    const { app, simulator, queue, providerStatus } = await createTestApp(database, { simulator: ownSimulator, retry: options.retry, env });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    // The server's check at start, awaited here so that every page of the file sees its answer.
    providerStatus.start();
    await providerStatus.checkNow();
    const baseUrl = `http://127.0.0.1:${app.server?.port}`;
    stopServer = async () => {
      providerStatus.stop();
      await app.stop(true);
      await queue.stop();
      await ownSimulator?.stop();
      await database.close();
    };
    const browser = await launchChromium();
    harness = {
      baseUrl,
      browser,
      database,
      simulator,
      async newPage(contextOptions, pageOptions = {}) {
        const headers = { ...contextOptions?.extraHTTPHeaders };
        if (options.distinctAddresses && !Object.keys(headers).some((name) => name.toLowerCase() === "x-forwarded-for"))
          headers["x-forwarded-for"] = nextTestIp();
        const context = await browser.newContext({ baseURL: baseUrl, ...contextOptions, extraHTTPHeaders: headers });
        const errors: string[] = [];
        contexts.push({ context, errors });
        const page = await context.newPage();
        const allowed = pageOptions.allowConsoleErrors ?? [];
        page.on("console", (message) => {
          if (message.type() !== "error") return;
          // A deliberate visit to a 404 page logs its own status; any other failed resource counts.
          if (message.text().startsWith("Failed to load resource") && message.location().url === page.url()) return;
          if (allowed.some((pattern) => pattern.test(`${message.text()} ${message.location().url}`))) return;
          errors.push(message.text());
        });
        page.on("pageerror", (error) => errors.push(error.message));
        return page;
      },
      async signInAsPro(page) {
        if (!page.url().startsWith(baseUrl)) await page.goto("/");
        const account = newAccount();
        const status = await page.evaluate(async (body) => {
          const response = await fetch("/api/register", {
            method: "POST",
            credentials: "include",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          return response.status;
        }, account);
        if (status !== 201) throw new Error(`registering ${account.username} from the page answered ${status}`);
        const [row] = await database.db
          .select({ id: users.id })
          .from(users)
          .where(eq(sql`lower(${users.username})`, account.username.toLowerCase()));
        if (!row) throw new Error("registered user not found");
        await grantPro(database, row.id);
        return { ...account, id: row.id };
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

/** Fills and sends the Register tab of /auth (the page must be open). */
export async function registerThroughForm(page: Page, account: { username: string; email: string; password: string }): Promise<void> {
  await page.getByRole("tab", { name: "Register" }).click();
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm Password").fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

/** Opens `path` and waits until the page is interactive. */
export async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

const ROOT = resolve(import.meta.dir, "../..");
/** The README's pictures: rewritten only on purpose, so that a test run leaves the work tree clean. */
const DOCS_SCREENSHOTS = join(ROOT, "docs/screenshots");
/** Every other run's pictures (git-ignored), to look at after a run. */
const TEST_SCREENSHOTS = join(ROOT, "test-results/screenshots");

/**
 * Saves a screenshot of `page` as `name`: into docs/screenshots/ when UPDATE_SCREENSHOTS=1, else
 * into test-results/screenshots/. `published: false` marks a picture the docs do not show, which
 * always goes to test-results/.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean; published?: boolean } = {}): Promise<string> {
  const { fullPage = false, published = true } = options;
  const folder = published && process.env.UPDATE_SCREENSHOTS === "1" ? DOCS_SCREENSHOTS : TEST_SCREENSHOTS;
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path, fullPage, animations: "disabled", caret: "hide" });
  return path;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Serious and critical axe-core violations on the current page, as "rule: target" lines. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // A dialog or toast still fading in is measured at part opacity, and its text fails colour
  // contrast: the page is checked as it settles, once its running animations have finished.
  // (Endless ones, a spinner's, are left running; so is one that never finishes, a paused one,
  // after 3 s: waiting on it hung the check for good.)
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((settle) => setTimeout(settle, 3_000)),
    ]),
  );
  // Evaluated through DevTools, which the page's CSP does not govern (an injected <script> would be refused, as it should).
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type AxeResult = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run(): Promise<AxeResult> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}
