import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { newAccount } from "#tests/support/accounts.ts";
import { registerThroughForm, screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";

/*
 * Workspaces in Chromium (ADR 071): an owner makes a workspace from the header's switcher and a
 * tracker in it, and invites an editor and a viewer by link; each accepts in their own browser
 * (one signs up on the way, the other is signed in already). The editor runs the tracker; the
 * viewer reads its trend, is offered no Run now and no Edit, and the API refuses them the run.
 */
const harness = useBrowser({ simulator: { seed: 20261207 }, distinctAddresses: true });

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };

/** The link's path on this server (the server writes its own origin, which may differ from the test's). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Creates an invitation link for `role` on the workspace page, and returns it. */
async function invite(page: Page, role: "Editor" | "Viewer"): Promise<string> {
  await page.getByLabel("Role", { exact: true }).selectOption({ label: role });
  const created = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/invitations"));
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const { url } = (await response.json()) as { url: string };
  expect(url).toMatch(/\/invitations\/[^/]+$/);
  // The page shows it, with its Copy button.
  const field = page.getByTestId("invitation-link").getByLabel("Invitation link");
  await page.waitForFunction((value) => document.querySelector<HTMLInputElement>('[data-testid="invitation-link"] input')?.value === value, url);
  expect(await field.inputValue()).toBe(url);
  await page.getByTestId("invitation-link").getByRole("button", { name: /^Copy/ }).waitFor();
  return url;
}

describe("workspaces in Chromium", () => {
  test(
    "an owner invites an editor and a viewer; the viewer reads the trend and cannot run or edit; the editor runs",
    async () => {
      // The owner: Pro, with a brand lens for the form.
      const owner = await harness().newPage({ viewport: DESKTOP });
      await owner.goto("/");
      await harness().signInAsPro(owner);
      const lens = await owner.request.put("/api/user/brand-lens", {
        data: { brand: { name: "Acme", aliases: [], domains: ["acme.example"] }, competitors: [{ name: "Globex" }] },
      });
      expect(lens.status()).toBe(200);
      await visit(owner, "/trackers");

      // The switcher: my personal workspace, then "New workspace…".
      const switcher = owner.getByTestId("workspace-switcher");
      await switcher.click();
      const menu = owner.getByRole("menu");
      expect(await menu.getByRole("menuitemradio").count()).toBe(1);
      expect(await menu.getByRole("menuitemradio").textContent()).toContain("Owner");
      await menu.getByRole("menuitem", { name: "New workspace…" }).click();
      await owner.getByLabel("Workspace name").fill("Acme marketing");
      await owner.getByRole("button", { name: "Create workspace" }).click();
      await owner.waitForURL((url) => url.pathname === "/trackers" && url.searchParams.has("workspace"));
      const workspaceId = new URL(owner.url()).searchParams.get("workspace") ?? "";
      await owner.getByTestId("trackers-workspace").filter({ hasText: "Acme marketing" }).waitFor();
      await owner.getByRole("heading", { name: "No trackers yet" }).waitFor();
      expect(await switcher.getAttribute("aria-label")).toBe("Workspace: Acme marketing");

      // A tracker in it, through the form, which keeps the workspace in its address.
      await owner.getByRole("main").getByRole("link", { name: "New tracker" }).first().click();
      await owner.waitForURL((url) => url.pathname === "/trackers/new" && url.searchParams.get("workspace") === workspaceId);
      await owner.getByText("In Acme marketing").waitFor();
      await owner.getByLabel("Name", { exact: true }).fill("Team CRM questions");
      await owner.getByLabel("Questions").fill("best crm for startups");
      await owner.getByLabel("Iterations per question").fill("1");
      await owner.getByRole("button", { name: "Create tracker" }).click();
      await owner.waitForURL((url) => /^\/trackers\/[0-9a-f-]{36}$/.test(url.pathname));
      const trackerPath = new URL(owner.url()).pathname;
      const tracker = await (await owner.request.get(`/api/trackers/${trackerPath.split("/")[2]}`)).json();
      expect(tracker.workspaceId).toBe(workspaceId);
      // Its page goes back to its workspace's list.
      expect(await owner.getByRole("link", { name: "Back to Trackers" }).getAttribute("href")).toBe(`/trackers?workspace=${workspaceId}`);

      // The workspace page: invite an editor and a viewer by link.
      await visit(owner, `/workspaces/${workspaceId}`);
      await owner.getByRole("heading", { name: "Acme marketing", level: 1 }).waitFor();
      const editorLink = await invite(owner, "Editor");
      const viewerLink = await invite(owner, "Viewer");
      await owner.getByTestId("pending-invitation").nth(1).waitFor();
      expect(await owner.getByTestId("pending-invitation").count()).toBe(2);

      // The editor signs up on the way: the invitation sends them to create an account and back.
      // Accepting a used link is a 409 the page shows, which the browser logs.
      const editor = await harness().newPage({ viewport: DESKTOP }, { allowConsoleErrors: [/status of 409/] });
      await visit(editor, pathOf(editorLink));
      await editor.getByRole("heading", { name: "You're invited to join a workspace" }).waitFor();
      expect(await seriousAxeViolations(editor)).toEqual([]);
      await editor.getByRole("link", { name: "Create an account" }).click();
      await editor.waitForURL((url) => url.pathname === "/auth");
      await registerThroughForm(editor, newAccount());
      await editor.waitForURL((url) => url.pathname.startsWith("/invitations/"));
      await editor.getByRole("button", { name: "Accept invitation" }).click();
      await editor.waitForURL((url) => url.pathname === "/trackers" && url.searchParams.get("workspace") === workspaceId);
      await editor.getByRole("link", { name: "Team CRM questions" }).click();
      await editor.waitForURL((url) => url.pathname === trackerPath);
      await editor.getByRole("button", { name: /^Run now/ }).click();
      await editor.getByTestId("tracker-run").first().getByTestId("run-status").filter({ hasText: "Completed" }).waitFor({ timeout: 90_000 });

      // A used link says so, in the server's words.
      await visit(editor, pathOf(editorLink));
      await editor.getByRole("button", { name: "Accept invitation" }).click();
      await editor.getByRole("alert").filter({ hasText: "This invitation has been used already" }).waitFor();

      // The viewer is signed in already (a free account): Accept, then read.
      const viewer = await harness().newPage({ viewport: DESKTOP });
      await viewer.goto("/");
      const account = newAccount();
      const registered = await viewer.request.post("/api/register", { data: account });
      expect(registered.status()).toBe(201);
      await visit(viewer, pathOf(viewerLink));
      await viewer.getByRole("button", { name: "Accept invitation" }).click();
      await viewer.waitForURL((url) => url.pathname === "/trackers" && url.searchParams.get("workspace") === workspaceId);
      // Their list offers no New tracker, Run now or Pause.
      await viewer.getByTestId("tracker-row").first().waitFor();
      expect(await viewer.getByRole("link", { name: "New tracker" }).count()).toBe(0);
      expect(await viewer.getByRole("button", { name: /^Run now/ }).count()).toBe(0);
      await visit(viewer, trackerPath);
      await viewer.getByRole("heading", { name: "Trend", level: 2 }).waitFor();
      await viewer.getByTestId("tracker-viewer").waitFor();
      expect(await viewer.getByRole("button", { name: /^Run now/ }).count()).toBe(0);
      expect(await viewer.getByRole("link", { name: "Edit" }).count()).toBe(0);
      expect(await viewer.getByRole("button", { name: /^Pause|^Resume/ }).count()).toBe(0);
      expect(await viewer.getByRole("button", { name: /Delete tracker/ }).count()).toBe(0);
      // The trend reads as the owner's does.
      const trend = await viewer.request.get(`${trackerPath.replace("/trackers/", "/api/trackers/")}/trend?metric=mention`);
      expect(trend.status()).toBe(200);
      // And the API refuses them the run.
      const run = await viewer.request.post(`${trackerPath.replace("/trackers/", "/api/trackers/")}/runs`);
      expect(run.status()).toBe(403);
      expect((await run.json()).code).toBe("ROLE_REQUIRED");

      // The owner sees all three members and the log.
      await visit(owner, `/workspaces/${workspaceId}`);
      expect(await owner.getByTestId("workspace-member").count()).toBe(3);
      await owner.getByText("No pending invitations.").waitFor();
      await owner.getByTestId("audit-entry").first().waitFor();
      expect(await owner.getByTestId("audit-entry").filter({ hasText: "member.joined" }).count()).toBe(2);
      expect(await owner.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toBe(`/api/workspaces/${workspaceId}/audit.csv`);
      expect(await seriousAxeViolations(owner)).toEqual([]);
      await screenshot(owner, "workspace.png", { fullPage: true });
      // The personal workspace cannot be deleted, and says why.
      const personal = (await (await owner.request.get("/api/workspaces")).json()).workspaces.find((one: { personal: boolean }) => one.personal);
      await visit(owner, `/workspaces/${personal.id}`);
      await owner.getByTestId("personal-not-deletable").waitFor();
      expect(await owner.getByRole("button", { name: "Delete workspace" }).count()).toBe(0);

      // The phone layout: nothing wider than the screen.
      const phone = await harness().newPage({ viewport: PHONE });
      await phone.context().addCookies(await owner.context().cookies());
      await visit(phone, `/workspaces/${workspaceId}`);
      await phone.getByRole("heading", { name: "Acme marketing", level: 1 }).waitFor();
      await phone.getByTestId("audit-entry").first().waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone, "workspace-mobile.png", { fullPage: true });
    },
    TIMEOUT,
  );
});
