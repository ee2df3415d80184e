import { describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { newAccount } from "#tests/support/accounts.ts";
import { seriousAxeViolations, useBrowser, visit, type ContextOptions, type PageOptions } from "#tests/support/browser.ts";

/*
 * The profile's "CLI access" card in Chromium: a token is created, shown once, copied,
 * works as `Authorization: Bearer` on the API, and stops working when revoked. Free and Pro, at
 * 1280 and 360 px, with the list's error state.
 */
const harness = useBrowser();

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 60_000;
const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 360, height: 780 };
const TOKEN = /^aisc_[A-Za-z0-9_-]{43}$/;

const card = (page: Page): Locator => page.getByRole("region", { name: "CLI access" });
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");

/** A registered (free) visitor: the context keeps the session cookie. */
async function signedIn(options: ContextOptions = {}, pageOptions?: PageOptions): Promise<{ page: Page; username: string }> {
  const page = await harness().newPage({ viewport: DESKTOP, ...options }, pageOptions);
  const account = newAccount();
  expect((await page.request.post("/api/register", { data: account })).status()).toBe(201);
  return { page, username: account.username };
}

/** GET /api/auth/user with the token as a bearer. A bearer wins over the context's session cookie: an unknown or revoked one is a 401. */
async function whoIsBearer(page: Page, token: string): Promise<{ status: number; username?: string }> {
  const response = await page.request.get("/api/auth/user", { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status(), ...(response.ok() ? { username: ((await response.json()) as { username: string }).username } : {}) };
}

async function createToken(page: Page, name: string): Promise<string> {
  await card(page).getByLabel("Token name").fill(name);
  await card(page).getByRole("button", { name: "Create token" }).click();
  const field = card(page).getByLabel("Token", { exact: true });
  await field.waitFor();
  return field.inputValue();
}

describe("the CLI access card", () => {
  test(
    "a free account creates a token, copies it, uses it as a bearer, and revokes it",
    async () => {
      const { page, username } = await signedIn(
        { permissions: ["clipboard-read", "clipboard-write"] },
        // The empty name is refused by the server (400), which the browser logs.
        { allowConsoleErrors: [/Failed to load resource.*\b400\b.*\/api\/tokens/] },
      );
      await visit(page, "/user/profile");
      const tokens = card(page);
      await tokens.getByText("No tokens yet.", { exact: false }).waitFor();
      // Free users may have tokens; the card says what the CLI then cannot do.
      await tokens.getByRole("note").getByText("Multi-iteration searches from the CLI need Pro").waitFor();
      expect(await tokens.getByRole("link", { name: "What Pro includes" }).getAttribute("href")).toBe("/upgrade");

      // The server's message, under the field it is about.
      await tokens.getByRole("button", { name: "Create token" }).click();
      await tokens.getByText("A token name is required", { exact: true }).waitFor();
      const nameField = tokens.getByLabel("Token name");
      expect(await nameField.getAttribute("aria-invalid")).toBe("true");
      const describedBy = (await nameField.getAttribute("aria-describedby")) ?? "";
      expect(await page.locator(`[id="${describedBy.split(" ")[0]}"]`).textContent()).toBe("A token name is required");

      const token = await createToken(page, "Laptop");
      expect(token).toMatch(TOKEN);
      // Shown this once, focused, read-only, with how to use it.
      const field = tokens.getByLabel("Token", { exact: true });
      expect(await field.evaluate((input) => input === document.activeElement && (input as HTMLInputElement).readOnly)).toBe(true);
      await tokens.getByText("it will not be shown again", { exact: false }).waitFor();
      await tokens.getByText(/aisc login --server http:\/\/127\.0\.0\.1:\d+ --token-stdin/).waitFor();
      await tokens.getByText("AISC_TOKEN", { exact: true }).waitFor();
      expect(await tokens.getByText("A token name is required").count()).toBe(0);
      expect({ path: "/user/profile (new token)", violations: await seriousAxeViolations(page) }).toEqual({
        path: "/user/profile (new token)",
        violations: [],
      });

      await tokens.getByRole("button", { name: "Copy", exact: true }).click();
      await tokens.getByRole("button", { name: "Copied", exact: true }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

      // Listed by name and first characters, never the token itself.
      const row = tokens.getByRole("listitem").filter({ hasText: "Laptop" });
      await row.getByText(`${token.slice(0, 9)}…`, { exact: true }).waitFor();
      await row.getByText("Never used", { exact: true }).waitFor();
      // What the token may do, quietly (managing tokens and billing are not among them; workspaces as its user's role allows).
      await row.getByText("Scopes: search, history, variants, compare, lens, account:read, trackers, shares, workspaces", { exact: true }).waitFor();
      expect(await row.textContent()).not.toContain(token);

      expect(await whoIsBearer(page, token)).toEqual({ status: 200, username });

      // Gone after a reload; the list now says when it was used.
      await visit(page, "/user/profile");
      expect(await page.content()).not.toContain(token);
      await row.getByText("Last used", { exact: false }).waitFor();
      expect(await row.getByText("Never used").count()).toBe(0);

      // Revoking asks first; keeping it changes nothing and gives focus back.
      const revoke = row.getByRole("button", { name: "Revoke token Laptop" });
      await revoke.click();
      const dialog = page.getByRole("dialog", { name: "Revoke “Laptop”?" });
      await dialog.waitFor();
      // Contrast is measured once the dialog and its overlay have faded in.
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
      expect({ path: "/user/profile (revoke dialog)", violations: await seriousAxeViolations(page) }).toEqual({
        path: "/user/profile (revoke dialog)",
        violations: [],
      });
      await dialog.getByRole("button", { name: "Keep token" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(() => document.activeElement?.textContent?.includes("Revoke"));
      expect(await whoIsBearer(page, token)).toMatchObject({ status: 200 });

      await revoke.click();
      await dialog.getByRole("button", { name: "Revoke token" }).click();
      await dialog.waitFor({ state: "detached" });
      await toasts(page).getByText("Token revoked", { exact: true }).waitFor();
      await tokens.getByText("No tokens yet.", { exact: false }).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === "Your tokens");
      // The session cookie goes along with the request: the revoked bearer is refused all the same.
      expect(await whoIsBearer(page, token)).toEqual({ status: 401 });
    },
    TIMEOUT,
  );

  test(
    "at 360 px it fits without scrolling sideways; a Pro account sees no free-plan note",
    async () => {
      const page = await harness().newPage({ viewport: MOBILE, permissions: ["clipboard-read", "clipboard-write"] });
      await page.goto("/");
      await harness().signInAsPro(page);
      await visit(page, "/user/profile");
      const token = await createToken(page, "Claude Desktop on the shared office laptop, second floor");
      expect(token).toMatch(TOKEN);
      await card(page).getByRole("listitem").filter({ hasText: "office laptop" }).waitFor();
      expect(await card(page).getByRole("note").count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      // Done hides it for good.
      await card(page).getByRole("button", { name: "Done" }).click();
      expect(await card(page).getByLabel("Token", { exact: true }).count()).toBe(0);
      expect(await page.content()).not.toContain(token);

      // Revoking the token on show takes it off the screen too; the other one stays.
      const second = await createToken(page, "Phone");
      await card(page).getByRole("button", { name: "Revoke token Phone" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
      await page.getByRole("dialog").waitFor({ state: "detached" });
      expect(await card(page).getByLabel("Token", { exact: true }).count()).toBe(0);
      expect(await page.content()).not.toContain(second);
      expect(await card(page).getByRole("listitem").allTextContents()).toEqual([expect.stringContaining("office laptop")]);
    },
    TIMEOUT,
  );

  test(
    "a list that fails to load says so and tries again",
    async () => {
      // The failed list answers 500, which the browser logs.
      const { page } = await signedIn({}, { allowConsoleErrors: [/Failed to load resource.*\b500\b.*\/api\/tokens/] });
      await visit(page, "/");
      // A client-side visit, so that the browser (not the server's render) asks for the list.
      await page.route("**/api/tokens", (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Something broke" }) }),
      );
      await page.evaluate(() => {
        history.pushState(null, "", "/user/profile");
        dispatchEvent(new PopStateEvent("popstate"));
      });
      const alert = card(page).getByRole("alert").filter({ hasText: "Could not load your tokens" });
      await alert.getByText("Something broke", { exact: true }).waitFor();
      await page.unroute("**/api/tokens");
      await alert.getByRole("button", { name: "Try again" }).click();
      await card(page).getByText("No tokens yet.", { exact: false }).waitFor();
    },
    TIMEOUT,
  );
});
