import { Elysia } from "elysia";
import { rawBody } from "#src/server/http/body-limit.ts";
import { STRIPE_SIM_PATH } from "#src/server/services/billing/config.ts";

/**
 * Simulated billing only: the simulator's Stripe.js stand-in, and the two calls it makes from the
 * browser (read and confirm a PaymentIntent with the publishable key), relayed to the loopback
 * simulator. The browser talks to this origin only, as it would talk to js.stripe.com and
 * api.stripe.com; secret-key calls are not relayed.
 */
export function stripeRelayRoutes(apiBase: string) {
  const relay = async (request: Request, path: string): Promise<Response> => {
    const url = new URL(request.url);
    const headers = new Headers({ "content-type": request.headers.get("content-type") ?? "application/x-www-form-urlencoded" });
    const auth = request.headers.get("authorization");
    if (auth?.startsWith("Bearer pk_")) headers.set("authorization", auth);
    const answer = await fetch(`${apiBase}${path}${url.search}`, {
      method: request.method,
      headers,
      body: request.method === "GET" ? undefined : rawBody(request),
    });
    return new Response(answer.body, {
      status: answer.status,
      headers: { "content-type": answer.headers.get("content-type") ?? "application/json", "cache-control": "no-store" },
    });
  };
  // Stripe's API as the simulator speaks it, not ours: kept out of the API reference.
  const hidden = { detail: { hide: true } };
  return new Elysia()
    .get(`${STRIPE_SIM_PATH}/js/v3.js`, ({ request }) => relay(request, "/js/v3.js"), hidden)
    .get(`${STRIPE_SIM_PATH}/v1/payment_intents/:id`, ({ request, params }) => relay(request, `/v1/payment_intents/${encodeURIComponent(params.id)}`), hidden)
    .post(
      `${STRIPE_SIM_PATH}/v1/payment_intents/:id/confirm`,
      ({ request, params }) => relay(request, `/v1/payment_intents/${encodeURIComponent(params.id)}/confirm`),
      hidden,
    );
}
