import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { newAccount } from "#tests/support/accounts.ts";
import { browserAt, startServer, type Server } from "#tests/support/server.ts";
import { CARDS } from "#tests/support/stripe.ts";

/*
 * Simulated billing is the default demo: the server process starts the Stripe simulator itself
 * (no Stripe keys). A restart on the same DATA_DIR must find at "Stripe" every customer and
 * subscription its database names, so that every billing action still works.
 */

let sim: Simulator;
const running: Server[] = [];
beforeAll(() => {
  sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  for (const server of running.splice(0)) server.process.kill("SIGKILL");
  sim.stop();
});

async function start(dataDir: string): Promise<Server> {
  const server = await startServer(sim, dataDir, {});
  running.push(server);
  return server;
}

async function restart(server: Server, dataDir: string): Promise<Server> {
  server.process.kill("SIGTERM");
  expect(await server.process.exited).toBe(0);
  return start(dataDir);
}

/** What Stripe.js does with the card: confirms the PaymentIntent through the app's relay, with the publishable key. */
async function pay(baseUrl: string, publishableKey: string, clientSecret: string): Promise<string> {
  const id = clientSecret.split("_secret_")[0] ?? "";
  const body = new URLSearchParams({
    client_secret: clientSecret,
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": CARDS.visa,
    "payment_method_data[card][exp_month]": "12",
    "payment_method_data[card][exp_year]": String(new Date().getFullYear() + 3),
    "payment_method_data[card][cvc]": "123",
  });
  const answer = await fetch(`${baseUrl}/stripe-sim/v1/payment_intents/${id}/confirm`, {
    method: "POST",
    headers: { authorization: `Bearer ${publishableKey}`, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return ((await answer.json()) as { status?: string }).status ?? `HTTP ${answer.status}`;
}

/** A fresh server on a fresh DATA_DIR, and a person there who signed up and opened checkout (a subscription waiting for payment). */
async function checkoutOpened() {
  const dataDir = mkdtempSync(join(tmpdir(), "ai-search-billing-restart-"));
  const server = await start(dataDir);
  const person = browserAt(server.baseUrl);
  await person.api.register(newAccount());
  const opened = await person.api.createSubscription();
  expect(opened.status).toBe("incomplete");
  return { dataDir, server, person, opened };
}

describe("simulated billing across a restart of the server", () => {
  test("a Pro user (card 4242) can cancel after a restart; the simulator's state is an owner-only file in DATA_DIR", async () => {
    const { dataDir, server: first, person, opened: created } = await checkoutOpened();
    const { publishableKey } = await person.api.billingPlan();
    expect(await pay(first.baseUrl, publishableKey ?? "", created.clientSecret ?? "")).toBe("succeeded");
    expect(await person.api.verifySubscription(created.subscriptionId ?? "")).toEqual({ success: true });

    const state = statSync(join(dataDir, "stripe-simulator.json"));
    expect((state.mode & 0o777).toString(8)).toBe("600");

    const second = await restart(first, dataDir);
    const again = browserAt(second.baseUrl, person.jar);
    expect((await again.api.proStatus()).isPro).toBe(true);
    const cancelled = await again.api.cancelSubscription(created.subscriptionId ?? "");
    expect(cancelled.message).toContain("remains active until the end of the billing period");
    expect((await again.api.subscriptionDetails()).subscriptionDetails).toMatchObject({
      id: created.subscriptionId,
      status: "active",
      cancelAtPeriodEnd: true,
    });
    // And back: the subscription is the same one at Stripe.
    expect((await again.api.resumeSubscription(created.subscriptionId ?? "")).success).toBe(true);
  });

  test("a free user who opened checkout before a restart upgrades after it", async () => {
    const { dataDir, server: first, person, opened } = await checkoutOpened();

    const second = await restart(first, dataDir);
    const again = browserAt(second.baseUrl, person.jar);
    const created = await again.api.createSubscription();
    expect(created).toMatchObject({ status: "incomplete", subscriptionId: opened.subscriptionId });
    const { publishableKey } = await again.api.billingPlan();
    expect(await pay(second.baseUrl, publishableKey ?? "", created.clientSecret ?? "")).toBe("succeeded");
    expect(await again.api.verifySubscription(created.subscriptionId ?? "")).toEqual({ success: true });
    expect((await again.api.proStatus()).isPro).toBe(true);
  });
});
