import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import type Stripe from "stripe";
import { startStripeSimulator, type StripeSimulator } from "#dev/simulators/stripe.ts";
import { launchChromium } from "#tests/support/browser.ts";
import { CARDS, incompleteSubscription, stripeFor } from "#tests/support/stripe.ts";

/*
 * The Stripe.js stand-in in Chromium. A test server plays the app: it serves a page and proxies
 * /stripe-sim/* to the simulator, so the script is loaded from /stripe-sim/js/v3.js and must call
 * /stripe-sim/v1/… (relative to its own URL), never the simulator's origin. Once with the plain
 * Stripe.js API, once with @stripe/stripe-js + @stripe/react-stripe-js as the web app uses them.
 */
const PREFIX = "/stripe-sim";
const TIMEOUT = 45_000;

let sim: StripeSimulator;
let stripe: Stripe;
let browser: Browser;
let app: ReturnType<typeof Bun.serve>;
let reactBundle = "";
const proxied: string[] = [];
const consoleErrors: string[] = [];

const plainPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Pay</title>
<script src="${PREFIX}/js/v3.js"></script></head>
<body><main style="max-width:420px;margin:24px auto;font-family:system-ui"><div id="payment"></div></main>
<script>
  window.events = [];
  window.mountPayment = function (publishableKey, clientSecret) {
    var stripe = Stripe(publishableKey);
    var elements = stripe.elements({ clientSecret: clientSecret, appearance: { theme: "stripe" } });
    var element = elements.create("payment", { layout: "tabs" });
    element.on("ready", function () { events.push("ready"); });
    element.on("change", function (event) { events.push("change:" + event.complete + ":" + event.value.type); });
    element.mount("#payment");
    window.pay = function (redirect) {
      return elements.submit().then(function (submitted) {
        if (submitted.error) return { error: submitted.error };
        return stripe.confirmPayment({ elements: elements, confirmParams: { return_url: location.origin + "/done" }, redirect: redirect });
      });
    };
  };
</script></body></html>`;

const reactPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Pay</title>
<script src="${PREFIX}/js/v3.js"></script></head><body><div id="root"></div><script type="module" src="/react.js"></script></body></html>`;

beforeAll(async () => {
  sim = startStripeSimulator();
  stripe = stripeFor(sim);
  const built = await Bun.build({
    entrypoints: [resolve(import.meta.dir, "../fixtures/stripe-elements.tsx")],
    target: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!built.success) throw new AggregateError(built.logs, "bundling the React fixture failed");
  reactBundle = (await built.outputs[0]?.text()) ?? "";
  app = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname.startsWith(`${PREFIX}/`)) {
        proxied.push(`${request.method} ${url.pathname}`);
        const body = request.method === "GET" ? undefined : await request.arrayBuffer();
        return fetch(`${sim.origin}${url.pathname.slice(PREFIX.length)}${url.search}`, { method: request.method, headers: request.headers, body });
      }
      const html = (text: string) => new Response(text, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (url.pathname === "/") return html(plainPage);
      if (url.pathname === "/react") return html(reactPage);
      if (url.pathname === "/react.js") return new Response(reactBundle, { headers: { "content-type": "application/javascript" } });
      if (url.pathname === "/done") return html('<!doctype html><link rel="icon" href="data:,"><title>Done</title><p>Done</p>');
      return new Response("Not Found", { status: 404 });
    },
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop(true);
  await sim?.stop();
  // A declined confirm is a 402, which Chromium reports as a failed resource: expected.
  expect(consoleErrors.filter((text) => !/status of 402/.test(text))).toEqual([]);
});

async function newPage(): Promise<Page> {
  const page = await browser.newPage({ baseURL: `http://127.0.0.1:${app.port}` });
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  return page;
}

async function fillCard(page: Page, number: string, expiry = "12 / 34", cvc = "123") {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date").fill(expiry);
  await page.getByLabel("Security code").fill(cvc);
}

/** The plain page with a payment element mounted for this PaymentIntent. */
async function openPlainPage(page: Page, clientSecret: string) {
  await page.goto("/");
  await page.evaluate(([pk, secret]) => (window as unknown as { mountPayment(pk: string, secret: string): void }).mountPayment(pk, secret), [
    sim.publishableKey,
    clientSecret,
  ] as const);
}

type PayResult = { error?: { type: string; code?: string; decline_code?: string; message: string }; paymentIntent?: { id: string; status: string } };

describe("the Stripe.js stand-in in Chromium", () => {
  test(
    "mounts a labelled card form; a decline resolves { error }, 4242 with redirect if_required resolves { paymentIntent } without navigating",
    async () => {
      const { subscription, clientSecret } = await incompleteSubscription(stripe, sim, "browser@example.com");
      const page = await newPage();
      await openPlainPage(page, clientSecret);
      await page.waitForFunction(() => (window as unknown as { events: string[] }).events.includes("ready"));
      // Like Stripe's own element it adds no test-mode line: the page around it says so, once.
      expect(await page.getByText("Test mode").count()).toBe(0);
      const pay = (redirect?: string) => page.evaluate((mode) => (window as unknown as { pay(mode?: string): Promise<PayResult> }).pay(mode), redirect);

      await page.getByLabel("Card number").fill("4242");
      await page.getByLabel("Expiration date").focus();
      await page.getByText("Your card number is incomplete.").waitFor();
      expect(await page.getByLabel("Card number").getAttribute("aria-invalid")).toBe("true");
      const incomplete = await pay("if_required");
      expect(incomplete.error).toMatchObject({ type: "validation_error", code: "incomplete_number" });
      await page.getByText("Your card's expiration date is incomplete.").waitFor();

      await fillCard(page, CARDS.declined);
      expect(await page.getByLabel("Card number").inputValue()).toBe("4000 0000 0000 0002");
      expect(await page.evaluate(() => (window as unknown as { events: string[] }).events.at(-1))).toBe("change:true:card");
      const declined = await pay("if_required");
      expect(declined.error).toMatchObject({ type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." });
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("incomplete");

      await fillCard(page, CARDS.visa);
      const paid = await pay("if_required");
      expect(paid.error).toBeUndefined();
      expect(paid.paymentIntent?.status).toBe("succeeded");
      expect(new URL(page.url()).pathname).toBe("/");
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("active");
      expect(proxied).toContain(`POST ${PREFIX}/v1/payment_intents/${paid.paymentIntent?.id}/confirm`);
      await page.close();
    },
    TIMEOUT,
  );

  test(
    "without redirect: if_required a payment navigates to return_url with the PaymentIntent and redirect_status",
    async () => {
      const { clientSecret } = await incompleteSubscription(stripe, sim, "redirect@example.com");
      const page = await newPage();
      await openPlainPage(page, clientSecret);
      await fillCard(page, CARDS.visa);
      // The page navigates away while this runs, which ends the evaluation.
      const evaluation = page.evaluate(() => (window as unknown as { pay(): Promise<unknown> }).pay()).catch(() => undefined);
      await page.waitForURL(/\/done\?/);
      await evaluation;
      const url = new URL(page.url());
      expect(url.searchParams.get("payment_intent")).toBe(clientSecret.split("_secret_")[0] ?? "");
      expect(url.searchParams.get("payment_intent_client_secret")).toBe(clientSecret);
      expect(url.searchParams.get("redirect_status")).toBe("succeeded");
      await page.close();
    },
    TIMEOUT,
  );

  test(
    "@stripe/stripe-js and @stripe/react-stripe-js work with it: <Elements>, <PaymentElement>, useStripe().confirmPayment",
    async () => {
      const { subscription, clientSecret } = await incompleteSubscription(stripe, sim, "react@example.com");
      const page = await newPage();
      await page.goto(`/react?pk=${sim.publishableKey}&secret=${encodeURIComponent(clientSecret)}`);
      const subscribe = page.getByRole("button", { name: "Subscribe" });
      await page.waitForFunction(() => !(document.querySelector("button") as HTMLButtonElement | null)?.disabled);
      await fillCard(page, CARDS.insufficientFunds);
      await page.getByTestId("complete").getByText("complete", { exact: true }).waitFor();
      await subscribe.click();
      await page.getByRole("status").getByText("declined: Your card has insufficient funds.").waitFor();
      await fillCard(page, CARDS.visa);
      await subscribe.click();
      await page.getByRole("status").getByText("paid: succeeded").waitFor();
      expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("active");
      await page.close();
    },
    TIMEOUT,
  );
});
