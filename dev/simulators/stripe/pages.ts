/**
 * The two pages Stripe hosts that our flows send a browser to: a Checkout Session's payment page
 * (`session.url`, /c/pay/:id: a card form; paying completes the session and redirects to its
 * success_url) and the customer portal (/p/session/:id: the customer's subscriptions, with
 * cancel / renew at period end, and a link back to return_url). Plain server-rendered HTML.
 */
import type { Billing } from "./billing.ts";
import { checkCard } from "./cards.ts";
import { completeCheckoutSession } from "./checkout.ts";
import { StripeApiError } from "./errors.ts";
import { formatAmount } from "./render.ts";

export function hostedPage(billing: Billing, request: Request, url: URL): Promise<Response> | Response | undefined {
  const checkout = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
  if (checkout) return checkoutPage(billing, request, checkout[1] ?? "");
  const portal = /^\/p\/session\/([^/]+)$/.exec(url.pathname);
  if (portal) return portalPage(billing, request, portal[1] ?? "");
  return undefined;
}

async function checkoutPage(billing: Billing, request: Request, id: string): Promise<Response> {
  const { store } = billing;
  const session = store.checkoutSessions.get(id);
  if (!session) return html(404, "Checkout", `<p>This checkout page does not exist.</p>`);
  let error = "";
  if (request.method === "POST" && session.status === "open") {
    const form = new URLSearchParams(await request.text());
    const [month, year] = (form.get("expiry") ?? "").split("/").map((part) => part.trim());
    const checked = checkCard({ number: form.get("number") ?? "", expMonth: month, expYear: year, cvc: form.get("cvc") ?? "" }, store.now);
    try {
      if ("error" in checked) throw new StripeApiError(402, { type: "card_error", ...checked.error });
      completeCheckoutSession(billing, session, checked.card);
      const target = (session.successUrl ?? "").replaceAll("{CHECKOUT_SESSION_ID}", session.id);
      if (target) return new Response(null, { status: 303, headers: { location: target } });
    } catch (failure) {
      if (!(failure instanceof StripeApiError)) throw failure;
      error = failure.message;
    }
  }
  const price = store.prices.lookup(session.price);
  const amount = `${formatAmount(price.unitAmount * session.quantity, price.currency)} per ${price.interval}`;
  if (session.status !== "open") return html(200, "Checkout", `<h1>${escape(price.productName)}</h1><p>This checkout session is ${session.status}.</p>`);
  const cancel = session.cancelUrl ? `<p><a href="${escape(session.cancelUrl)}">← Back</a></p>` : "";
  return html(
    error ? 402 : 200,
    "Checkout",
    `${cancel}<h1>Subscribe to ${escape(price.productName)}</h1><p class="amount">${escape(amount)}</p>
    <form method="post">
      <label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required>
      <div class="row">
        <div><label for="expiry">Expiration date</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" required></div>
        <div><label for="cvc">Security code</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" required></div>
      </div>
      ${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
      <button type="submit">Subscribe</button>
    </form>
    <p class="note">Simulated Stripe Checkout. Test mode: no card is charged · try 4242 4242 4242 4242</p>`,
  );
}

async function portalPage(billing: Billing, request: Request, id: string): Promise<Response> {
  const { store } = billing;
  const session = store.portalSessions.get(id);
  if (!session) return html(404, "Customer portal", `<p>This customer portal session does not exist.</p>`);
  if (request.method === "POST") {
    const form = new URLSearchParams(await request.text());
    const sub = store.subscriptions.get(form.get("subscription") ?? "");
    const action = form.get("action");
    if (sub && sub.customer === session.customer && (action === "cancel" || action === "renew")) {
      billing.hooks.during(null, () => billing.updateSubscription(sub, { cancelAtPeriodEnd: action === "cancel" }));
    }
    return new Response(null, { status: 303, headers: { location: `/p/session/${session.id}` } });
  }
  const customer = store.customers.lookup(session.customer);
  const subs = [...store.subscriptions.values()].filter((sub) => sub.customer === customer.id && sub.status !== "incomplete_expired");
  const card = customer.defaultPaymentMethod ? store.paymentMethods.get(customer.defaultPaymentMethod)?.card : undefined;
  const rows = subs.map((sub) => {
    const price = store.prices.lookup(sub.price);
    const ended = sub.status === "canceled";
    const when = ended ? `Ended ${date(sub.endedAt ?? store.now)}` : sub.cancelAtPeriodEnd ? `Cancels ${date(sub.periodEnd)}` : `Renews ${date(sub.periodEnd)}`;
    const button = ended ? "" : sub.cancelAtPeriodEnd ? actionButton(sub.id, "renew", "Renew plan") : actionButton(sub.id, "cancel", "Cancel plan");
    return `<li><strong>${escape(price.productName)}</strong> · ${escape(formatAmount(price.unitAmount * sub.quantity, price.currency))} per ${price.interval} · <span>${escape(sub.status)}</span> · ${when}${button}</li>`;
  });
  const back = session.returnUrl ? `<p><a href="${escape(session.returnUrl)}">← Return to ${escape(new URL(session.returnUrl).host)}</a></p>` : "";
  return html(
    200,
    "Customer portal",
    `${back}<h1>Simulated Stripe customer portal</h1><p>${escape(customer.email ?? customer.id)}</p>
    <h2>Subscriptions</h2><ul>${rows.join("") || "<li>No subscriptions.</li>"}</ul>
    <h2>Payment method</h2><p>${card ? `${escape(card.brand)} •••• ${escape(card.last4)}, expires ${card.expMonth}/${card.expYear}` : "None saved."}</p>
    <p class="note">This page stands in for Stripe's customer portal in offline development.</p>`,
  );
}

const actionButton = (subscription: string, action: string, label: string) =>
  ` <form method="post" style="display:inline"><input type="hidden" name="subscription" value="${escape(subscription)}"><input type="hidden" name="action" value="${action}"><button type="submit">${label}</button></form>`;

const date = (unix: number) => new Date(unix * 1000).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

function html(status: number, title: string, body: string): Response {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · Stripe simulator</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#18181b}h1{font-size:20px}h2{font-size:16px}label{display:block;margin:12px 0 4px;font-weight:500}
input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #d4d4d8;border-radius:6px;font:inherit}.row{display:flex;gap:12px}.row>div{flex:1}
button{margin-top:16px;padding:8px 14px;border:0;border-radius:6px;background:#18181b;color:#fff;font:inherit;cursor:pointer}li button{margin:0 0 0 8px;padding:2px 8px}
.error{color:#dc2626}.note{color:#71717a;font-size:13px;margin-top:16px}.amount{font-size:18px}</style></head><body>${body}</body></html>`;
  return new Response(page, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
