import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { searches, users } from "#db/schema.ts";
import { newAccount } from "#tests/support/accounts.ts";
import { registerThroughForm, seriousAxeViolations, useBrowser, visit, waitForHydration } from "#tests/support/browser.ts";

const harness = useBrowser();

type Account = ReturnType<typeof newAccount>;

/** A real browser against a real server: registration hashes passwords, a search runs every provider. */
const SLOW = 60_000;

const BANNER = "Create an Account to Upgrade to Pro";

/** An account made through the API, outside the browser: the page stays signed out. */
async function existingAccount(): Promise<Account> {
  const account = newAccount();
  const response = await fetch(`${harness().baseUrl}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(account),
  });
  expect(response.status).toBe(201);
  return account;
}

/** Signs the page's browser context in (the API request shares its cookies). */
async function signedInPage(): Promise<{ page: Page; account: Account }> {
  const page = await harness().newPage();
  const account = newAccount();
  const response = await page.request.post("/api/register", { data: account });
  expect(response.status()).toBe(201);
  return { page, account };
}

/** The header's avatar menu, once its (separately loaded) code has hydrated; `name` is who it is for. */
async function openUserMenu(page: Page, name: string) {
  const trigger = page.locator("[data-ready]", { has: page.locator("[data-slot=avatar]") });
  await trigger.waitFor();
  expect(await trigger.getAttribute("aria-label")).toBe(`Account menu for ${name}`);
  await trigger.click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

/** Marks the current document, to tell a client-side navigation (the mark stays) from a page load (it is gone). */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { sameDocumentMark: true }));
}

async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => "sameDocumentMark" in window);
}

/** After hydration and one frame, so that effects reading the browser (the upgrade flag, the referrer) have run. */
async function settled(page: Page): Promise<void> {
  await waitForHydration(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

describe("accounts in Chromium", () => {
  test(
    "register, search, find it in the history, reopen it, log out",
    async () => {
      const page = await harness().newPage();
      const account = newAccount();
      await visit(page, "/auth");
      await registerThroughForm(page, account);

      // Spec §4: the server signed the new account in; the app goes home as that user.
      await page.waitForURL((url) => url.pathname === "/");
      expect(await page.getByRole("link", { name: "Log In / Sign Up" }).count()).toBe(0);
      const menu = await openUserMenu(page, account.username);
      expect(await menu.getByText(account.username, { exact: true }).count()).toBe(1);
      expect(await menu.getByText(account.email, { exact: true }).count()).toBe(1);
      for (const item of ["Profile", "Search History", "Manage Subscription", "Log out"]) {
        expect(await menu.getByRole("menuitem", { name: item }).count()).toBe(1);
      }
      await page.keyboard.press("Escape");

      const query = `best trail running shoes ${account.username}`;
      await page.getByLabel("What would you like to search?").fill(query);
      await page.getByRole("button", { name: "Search All Models" }).click();
      await page.getByRole("tablist", { name: "Result views" }).waitFor({ timeout: 30_000 });

      await (await openUserMenu(page, account.username)).getByRole("menuitem", { name: "Search History" }).click();
      await page.waitForURL((url) => url.pathname === "/user/history");
      await page.getByRole("heading", { name: "Search History" }).waitFor();
      const entry = page.getByRole("link", { name: query });
      await entry.waitFor();
      expect(await entry.textContent()).toMatch(/just now|minute/);
      expect(await entry.textContent()).toMatch(/\d+ products?.*\d+ (company|companies).*\d+ links?/);
      expect({ path: "/user/history", violations: await seriousAxeViolations(page) }).toEqual({ path: "/user/history", violations: [] });

      await entry.click();
      await page.waitForURL((url) => /^\/search\/[0-9a-f-]{36}$/.test(url.pathname));
      await page.getByRole("tablist", { name: "Result views" }).waitFor();

      // The menu's "Log out" submits a POST form; with JavaScript the app sends it as a JSON call and goes home without a page load.
      await markDocument(page);
      const logout = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/logout");
      await (await openUserMenu(page, account.username)).getByRole("menuitem", { name: "Log out" }).click();
      expect((await logout).method()).toBe("POST");
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("link", { name: "Log In / Sign Up" }).waitFor();
      expect(await sameDocument(page)).toBe(true);
      expect((await page.request.get("/api/auth/user")).status()).toBe(401);

      await visit(page, "/user/profile");
      await page.getByRole("heading", { name: "Please Log In" }).waitFor();
      expect(await page.getByRole("link", { name: "Log In", exact: true }).getAttribute("href")).toBe("/api/login");
    },
    SLOW,
  );

  test(
    "the forms show the spec's field messages before sending anything",
    async () => {
      const page = await harness().newPage();
      await visit(page, "/auth");

      await page.getByRole("button", { name: "Log In" }).click();
      await page.getByText("Username is required", { exact: true }).waitFor();
      await page.getByText("Password is required", { exact: true }).waitFor();
      expect(await page.getByLabel("Username").getAttribute("aria-invalid")).toBe("true");

      await page.getByRole("tab", { name: "Register" }).click();
      await page.getByRole("button", { name: "Create Account" }).click();
      await page.getByText("Username must be at least 3 characters", { exact: true }).waitFor();
      await page.getByText("Please enter a valid email", { exact: true }).waitFor();
      await page.getByText("Password must be at least 8 characters", { exact: true }).waitFor();

      await page.getByLabel("Password", { exact: true }).fill("long enough password");
      await page.getByLabel("Confirm Password").fill("another password");
      await page.getByText("Passwords do not match", { exact: true }).waitFor();
      // The message sits under the confirmation field and describes it.
      const described = await page.getByLabel("Confirm Password").getAttribute("aria-describedby");
      expect(await page.locator(`[id="${described}"]`).textContent()).toBe("Passwords do not match");
      expect({ path: "/auth (register errors)", violations: await seriousAxeViolations(page) }).toEqual({ path: "/auth (register errors)", violations: [] });
    },
    SLOW,
  );

  test(
    "a wrong password says 'Invalid username or password'; the right one signs in",
    async () => {
      const account = await existingAccount();
      // The refused login answers 401, which the browser logs.
      const page = await harness().newPage(undefined, { allowConsoleErrors: [/Failed to load resource.*\b401\b.*\/api\/login/] });
      await visit(page, "/auth");

      await page.getByLabel("Username").fill(account.username);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Log In" }).click();
      await page.getByText("Login failed", { exact: true }).waitFor();
      await page.getByText("Invalid username or password", { exact: true }).waitFor();
      await expect(page.url()).toEndWith("/auth");

      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Log In" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await openUserMenu(page, account.username);
    },
    SLOW,
  );

  test(
    "if the session does not take after registering, it asks to log in on the Login tab",
    async () => {
      // The browser asks who is signed in after registering; here the answer is "nobody" (401).
      const page = await harness().newPage(undefined, { allowConsoleErrors: [/Failed to load resource.*\b401\b.*\/api\/auth\/user/] });
      await page.route("**/api/auth/user", (route) =>
        route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ code: "NOT_SIGNED_IN", message: "Not signed in" }) }),
      );
      const account = newAccount();
      await visit(page, "/auth");
      await registerThroughForm(page, account);
      await page.getByText("Please log in with your new account.", { exact: true }).waitFor();
      expect(await page.locator('[role=tab][aria-selected="true"]').textContent()).toBe("Login");
      expect(await page.getByLabel("Username").inputValue()).toBe(account.username);
      expect(new URL(page.url()).pathname).toBe("/auth");
    },
    SLOW,
  );

  test(
    "registering a taken username shows the server's message",
    async () => {
      const taken = await existingAccount();
      // The refused registration answers 409, which the browser logs.
      const page = await harness().newPage(undefined, { allowConsoleErrors: [/Failed to load resource.*\b409\b.*\/api\/register/] });
      await visit(page, "/auth");
      await registerThroughForm(page, newAccount({ username: taken.username }));
      await page.getByText("Registration failed", { exact: true }).waitFor();
      await page.getByText("Username is already taken", { exact: true }).waitFor();
      await expect(page.url()).toEndWith("/auth");
    },
    SLOW,
  );

  test(
    "registering with an email another account gives signs in like any registration (the email is not proved, so it tells nothing)",
    async () => {
      const other = await existingAccount();
      const page = await harness().newPage();
      await visit(page, "/auth");
      const account = newAccount({ email: other.email });
      await registerThroughForm(page, account);
      await page.waitForURL((url) => url.pathname === "/");
      await openUserMenu(page, account.username);
    },
    SLOW,
  );

  test(
    "the profile shows the person, an empty history, and logs out through its form",
    async () => {
      const { page, account } = await signedInPage();
      await visit(page, "/user/profile");
      await page.getByRole("heading", { level: 1, name: account.username }).waitFor();
      expect(await page.getByText(account.email, { exact: true }).count()).toBe(1);
      await page.getByText("You haven't performed any searches yet", { exact: true }).waitFor();
      expect(await page.getByRole("link", { name: "Start Searching" }).getAttribute("href")).toBe("/");
      expect(await page.getByRole("link", { name: "Home", exact: true }).getAttribute("href")).toBe("/");
      expect({ path: "/user/profile", violations: await seriousAxeViolations(page) }).toEqual({ path: "/user/profile", violations: [] });

      // A POST form (a link on any site could log people out), not a link to /api/logout.
      expect(await page.locator('a[href="/api/logout"]').count()).toBe(0);
      const button = page.locator('form[method="post"][action="/api/logout"]').getByRole("button", { name: "Log Out", exact: true });
      expect(await button.getAttribute("type")).toBe("submit");

      // With JavaScript: the client's JSON call, then home without a page load.
      await markDocument(page);
      const logout = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/logout");
      await button.click();
      // The client's JSON call, not the form's own urlencoded post.
      const sent = await logout;
      expect([sent.method(), sent.headers().accept, sent.headers()["content-type"] ?? ""]).toEqual(["POST", "application/json", ""]);
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("link", { name: "Log In / Sign Up" }).waitFor();
      expect(await sameDocument(page)).toBe(true);
      expect((await page.request.get("/api/auth/user")).status()).toBe(401);
      await page.goto("/user/history");
      await page.getByRole("heading", { name: "Please Log In" }).waitFor();
      expect({ path: "/user/history (signed out)", violations: await seriousAxeViolations(page) }).toEqual({
        path: "/user/history (signed out)",
        violations: [],
      });
    },
    SLOW,
  );

  test(
    "without JavaScript, the profile's Log Out posts the form and the server sends the browser home (303)",
    async () => {
      const page = await harness().newPage({ javaScriptEnabled: false });
      const account = newAccount();
      expect((await page.request.post("/api/register", { data: account })).status()).toBe(201);
      await page.goto("/user/profile");
      await page.getByRole("heading", { level: 1, name: account.username }).waitFor();

      const posted = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/logout");
      await page.getByRole("button", { name: "Log Out", exact: true }).click();
      const response = await posted;
      expect([response.request().method(), response.status(), response.headers().location]).toEqual(["POST", 303, "/"]);
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("link", { name: "Log In / Sign Up" }).waitFor();
      expect((await page.request.get("/api/auth/user")).status()).toBe(401);
    },
    SLOW,
  );

  test(
    "the history pages with 'Load more', shows iterations above 1, and the profile image",
    async () => {
      const { page, account } = await signedInPage();
      const { db } = harness().database;
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.username})`, account.username.toLowerCase()));
      if (!user) throw new Error("registered user not found");
      const image = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="teal"/></svg>')}`;
      await db.update(users).set({ firstName: "Ada", lastName: "Lovelace", profileImageUrl: image }).where(eq(users.id, user.id));
      const base = Date.now() - 3 * 86_400_000 - 3_600_000;
      await db.insert(searches).values(
        Array.from({ length: 23 }, (_, i) => ({
          userId: user.id,
          query: `saved query ${String(i).padStart(2, "0")}`,
          iterations: i === 22 ? 3 : 1,
          iterationCount: i === 22 ? 3 : 1,
          totalProducts: 1,
          totalCompanies: 2,
          totalLinks: 7,
          status: "completed" as const,
          createdAt: new Date(base + i * 60_000),
        })),
      );

      await visit(page, "/user/history");
      await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();
      await page.locator(`main img[src^="data:image/svg+xml"]`).waitFor();
      const entries = page.getByRole("main").getByRole("listitem");
      expect(await entries.count()).toBe(20);
      const newest = page.getByRole("link", { name: "saved query 22" });
      expect(await newest.textContent()).toContain("3 iterations");
      expect(await newest.textContent()).toContain("1 product");
      expect(await newest.textContent()).toContain("2 companies");
      expect(await newest.textContent()).toContain("7 links");
      expect(await newest.textContent()).toContain("3 days ago");
      expect(await page.getByRole("link", { name: "saved query 21" }).textContent()).not.toContain("iteration");

      await page.getByRole("button", { name: "Load more" }).click();
      await page.getByRole("link", { name: "saved query 00" }).waitFor();
      expect(await entries.count()).toBe(23);
      expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "saved query 00" }).getAttribute("href")).toMatch(/^\/search\/[0-9a-f-]{36}$/);

      // The header's avatar is the same image; the menu names the person.
      const menu = await openUserMenu(page, "Ada Lovelace");
      expect(await menu.getByText("Ada Lovelace", { exact: true }).count()).toBe(1);
    },
    SLOW,
  );

  describe("the upgrade banner", () => {
    test(
      "is absent on a plain visit",
      async () => {
        const page = await harness().newPage();
        await page.goto("/auth");
        await settled(page);
        await page.getByRole("heading", { name: "Log In / Sign Up" }).waitFor();
        expect(await page.getByText(BANNER).count()).toBe(0);
        // The three selling points and the way back.
        for (const point of ["Cross-model comparison", "Aggregated insights", "Export your results"]) {
          expect(await page.getByRole("heading", { name: point }).count()).toBe(1);
        }
        expect(await page.getByRole("link", { name: "Back to Home" }).getAttribute("href")).toBe("/");
        expect({ path: "/auth", violations: await seriousAxeViolations(page) }).toEqual({ path: "/auth", violations: [] });
      },
      SLOW,
    );

    test(
      "shows for ?from=upgrade, already in the server's HTML, with Register open",
      async () => {
        const page = await harness().newPage({ javaScriptEnabled: false });
        await page.goto("/auth?from=upgrade");
        expect(await page.getByText(BANNER, { exact: true }).count()).toBe(1);
        expect(await page.locator('[role=tab][aria-selected="true"]').textContent()).toBe("Register");
      },
      SLOW,
    );

    test(
      "shows for a referrer naming pricing",
      async () => {
        const page = await harness().newPage();
        await page.goto("/auth", { referer: `${harness().baseUrl}/pricing` });
        await settled(page);
        expect(await page.evaluate(() => document.referrer)).toContain("pricing");
        await page.getByText(BANNER, { exact: true }).waitFor();
      },
      SLOW,
    );

    test(
      "shows after 'Upgrade to Pro' in the header while anonymous, and the flag is then cleared",
      async () => {
        const page = await harness().newPage();
        await visit(page, "/");
        await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Upgrade to Pro" }).click();
        await page.waitForURL((url) => url.pathname === "/auth" && url.search === "?from=upgrade");
        await page.getByText(BANNER, { exact: true }).waitFor();
        const stored = await page.evaluate(() => [sessionStorage.getItem("fromUpgrade"), localStorage.getItem("fromUpgrade")]);
        expect(stored).toEqual([null, null]);
      },
      SLOW,
    );

    test(
      "shows for the stored flag alone, once",
      async () => {
        const page = await harness().newPage();
        await visit(page, "/");
        // Drop the query the button adds, so that only the flag it stores can bring the banner.
        await page.evaluate(() => {
          const push = history.pushState.bind(history);
          history.pushState = (state: unknown, unused: string, url?: string | URL | null) =>
            push(state, unused, url === undefined || url === null ? url : String(url).replace("?from=upgrade", ""));
        });
        await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Upgrade to Pro" }).click();
        await page.waitForURL((url) => url.pathname === "/auth");
        expect(new URL(page.url()).search).toBe("");
        await page.getByText(BANNER, { exact: true }).waitFor();

        await page.reload();
        await settled(page);
        expect(await page.getByText(BANNER).count()).toBe(0);
      },
      SLOW,
    );

    test(
      "shows when a signed-out visitor is sent from /checkout to sign in",
      async () => {
        const page = await harness().newPage();
        await page.goto("/checkout");
        await page.waitForURL((url) => url.pathname === "/auth");
        await page.getByText(BANNER, { exact: true }).waitFor();
      },
      SLOW,
    );
  });

  test(
    "signed out, /user/subscription sends to /auth, replacing itself in the history",
    async () => {
      const page = await harness().newPage();
      await page.goto("/");
      await page.goto("/user/subscription");
      await page.waitForURL((url) => url.pathname === "/auth");
      await page.getByRole("heading", { name: "Log In / Sign Up" }).waitFor();
      await page.goBack();
      await page.waitForURL((url) => url.pathname === "/");
    },
    SLOW,
  );

  test(
    "a signed-in visitor of /auth lands on /",
    async () => {
      const { page, account } = await signedInPage();
      const response = await page.goto("/auth");
      expect(response?.status()).toBe(200);
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("heading", { name: "AI Search Comparison" }).waitFor();
      await openUserMenu(page, account.username);
      // Signed in, the subscription page stays.
      await visit(page, "/user/subscription");
      await page.getByRole("heading", { name: "Manage Subscription" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/user/subscription");
    },
    SLOW,
  );
});
