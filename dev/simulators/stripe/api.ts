/**
 * HTTP around the routes, as api.stripe.com behaves: `Authorization: Bearer <key>` (or Basic),
 * form parameters from the body (POST) or the query (GET, DELETE), `Idempotency-Key` replays,
 * `expand[]`, JSON answers with a `request-id` header, and errors in Stripe's shape. CORS is open
 * (Stripe.js calls the publishable-key endpoints from the browser).
 */
import { errorJson, invalidRequest, StripeApiError } from "./errors.ts";
import { expand } from "./expand.ts";
import { Params, parseForm } from "./forms.ts";
import type { Call, Route } from "./call.ts";
import { billingRoutes } from "./routes-billing.ts";
import { sessionRoutes } from "./routes-sessions.ts";
import { newId } from "./store.ts";
import { API_VERSION } from "./webhooks.ts";

export type ApiContext = Omit<Call, "params" | "id" | "publishable"> & { secretKey: string; publishableKey: string };

const routes: Route[] = [...billingRoutes, ...sessionRoutes];

type Stored = { endpoint: string; params: string; status: number; body: string; requestId: string };

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, idempotency-key, stripe-version, stripe-account",
  "access-control-expose-headers": "request-id, idempotency-key, idempotent-replayed, original-request, stripe-version",
  "access-control-max-age": "300",
};

export function createApi(context: ApiContext): (request: Request, url: URL) => Promise<Response> {
  const idempotent = new Map<string, Stored>();

  return async function handle(request, url) {
    const requestId = newId("req", 14);
    const headers: Record<string, string> = { ...CORS, "request-id": requestId, "stripe-version": request.headers.get("stripe-version") ?? API_VERSION };
    const answer = (status: number, body: string) => new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers });

    const key = apiKey(request, context);
    if (key instanceof StripeApiError) return answer(key.status, JSON.stringify(errorJson(key)));
    const match = findRoute(request.method, url.pathname);
    if (!match) return answer(404, JSON.stringify(errorJson(unrecognized(request.method, url.pathname))));
    const { route, id } = match;
    if (key === "publishable" && !route.client) return answer(401, JSON.stringify(errorJson(publishableNotAllowed())));

    const text = request.method === "POST" ? await request.text() : url.search.slice(1);
    const idempotencyKey = request.method === "POST" ? request.headers.get("idempotency-key") : null;
    const endpoint = `${request.method} ${url.pathname}`;
    const params = canonical(text);
    if (idempotencyKey) {
      headers["idempotency-key"] = idempotencyKey;
      const stored = idempotent.get(idempotencyKey);
      if (stored) {
        const conflict =
          stored.endpoint !== endpoint
            ? endpointConflict(idempotencyKey, stored.endpoint, endpoint)
            : stored.params !== params
              ? paramsConflict(idempotencyKey)
              : undefined;
        if (conflict) return answer(conflict.status, JSON.stringify(errorJson(conflict)));
        Object.assign(headers, { "idempotent-replayed": "true", "original-request": stored.requestId });
        return answer(stored.status, stored.body);
      }
    }

    let status = 200;
    let body: string;
    let executed = false;
    try {
      const form = new Params(parseForm(text));
      const call: Call = { ...context, params: form, id, publishable: key === "publishable" };
      const cause = route.clock ? null : { requestId, idempotencyKey };
      const result = await context.billing.hooks.during(cause, () => route.handle(call));
      executed = true;
      body = JSON.stringify(expand(result, form.expand(), context.store, context.origin));
    } catch (error) {
      const failure = error instanceof StripeApiError ? error : unexpected(error);
      status = failure.status;
      body = JSON.stringify(errorJson(failure));
    }
    // Stripe saves the result once the endpoint acted (a decline included), not a request that failed validation.
    if (idempotencyKey && (executed || status === 402)) idempotent.set(idempotencyKey, { endpoint, params, status, body, requestId });
    return answer(status, body);
  };
}

function findRoute(method: string, pathname: string): { route: Route; id: string } | undefined {
  const parts = pathname.replace(/\/+$/, "").split("/");
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.path.split("/");
    if (pattern.length !== parts.length) continue;
    let id = "";
    const matches = pattern.every((segment, index) => {
      const part = decodeSegment(parts[index] ?? "");
      if (segment !== ":id") return segment === part;
      id = part;
      return part !== "";
    });
    if (matches) return { route, id };
  }
  return undefined;
}

/** Which key the request carries, or Stripe's 401. */
function apiKey(request: Request, context: ApiContext): "secret" | "publishable" | StripeApiError {
  const header = request.headers.get("authorization") ?? "";
  const [scheme, value = ""] = header.trim().split(/\s+/, 2);
  const key = scheme?.toLowerCase() === "bearer" ? value : scheme?.toLowerCase() === "basic" ? (safeAtob(value).split(":")[0] ?? "") : "";
  if (key === "") {
    return invalidRequest(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      { status: 401 },
    );
  }
  if (key === context.secretKey) return "secret";
  if (key === context.publishableKey) return "publishable";
  return invalidRequest(`Invalid API Key provided: ${redact(key)}`, { status: 401 });
}

/** `sk_test_****…abcd`, as Stripe shows a key it does not know. */
function redact(key: string): string {
  const prefix = /^(sk|pk|rk)_(test|live)_/.exec(key)?.[0] ?? "";
  const rest = key.slice(prefix.length);
  if (rest.length <= 4) return prefix + "*".repeat(rest.length);
  return prefix + "*".repeat(rest.length - 4) + rest.slice(-4);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function safeAtob(value: string): string {
  try {
    return atob(value);
  } catch {
    return "";
  }
}

/** The parameters in a stable order, to tell a replay from a different request under one key. */
function canonical(text: string): string {
  return [...new URLSearchParams(text)]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("&");
}

const unrecognized = (method: string, path: string) =>
  invalidRequest(`Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`, {
    status: 404,
  });

const publishableNotAllowed = () =>
  invalidRequest(
    "This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.",
    { status: 401 },
  );

function paramsConflict(key: string): StripeApiError {
  return new StripeApiError(400, {
    type: "idempotency_error",
    message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}

function endpointConflict(key: string, first: string, now: string): StripeApiError {
  return new StripeApiError(400, {
    type: "idempotency_error",
    message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${first}' vs '${now}'). Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}

function unexpected(error: unknown): StripeApiError {
  console.error("stripe simulator:", error);
  return new StripeApiError(500, { type: "api_error", message: `The Stripe simulator failed: ${error instanceof Error ? error.message : String(error)}` });
}
