import { beforeAll, afterAll, describe, expect, test } from "bun:test";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { NotificationSettings } from "#src/contract/notifications.ts";
import { seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";

/*
 * Issue 26: the profile's E-mail card on a server with SMTP_URL (a real SMTP server on loopback,
 * smtp-server): two switches, saved as they are ticked, naming the address the e-mails go to.
 * (Without SMTP_URL: tests/e2e/trackers-bell.e2e.test.ts.)
 */

// Read by the harness when it starts the app, after this file's SMTP server is listening.
const env: Record<string, string> = {};
let smtp: SMTPServer;
beforeAll(async () => {
  smtp = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], onData: (stream, _session, done) => stream.on("end", () => done()).resume() });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
const harness = useBrowser({ distinctAddresses: true, env });

describe("the profile's E-mail card with SMTP", () => {
  test("two switches, off at first, saved as they are ticked and kept on reload, with the address they go to", async () => {
    const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto("/");
    const account = await harness().signInAsPro(page);
    await visit(page, "/user/profile");
    const card = page.getByRole("region", { name: "E-mail" });
    const digest = card.getByRole("checkbox", { name: "Weekly digest of my trackers" });
    const alerts = card.getByRole("checkbox", { name: "An e-mail for each alert" });
    await digest.waitFor();
    expect(await card.getByText("E-mail is not configured on this server.").count()).toBe(0);
    expect(await card.textContent()).toContain(account.email);
    expect([await digest.isChecked(), await alerts.isChecked()]).toEqual([false, false]);

    await alerts.check();
    await card.getByText("Saved.").waitFor();
    expect(await alerts.isChecked()).toBe(true);
    const response = await page.request.get("/api/user/notifications");
    expect((await response.json()) as NotificationSettings).toMatchObject({ emailConfigured: true, email: account.email, digest: false, alerts: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await visit(page, "/user/profile");
    await digest.waitFor();
    expect([await digest.isChecked(), await alerts.isChecked()]).toEqual([false, true]);
  });
});
