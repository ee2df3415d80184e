import { Elysia } from "elysia";
import { createApiClient, type ApiClient } from "#src/client/api.ts";
import { randomBytes } from "node:crypto";
import { isHttps, type ConnectionInfo } from "#src/server/http/forwarded.ts";
import { pagePolicy } from "#src/server/http/security-headers.ts";

/** What renders a page: the web app's server renderer (web/render.tsx), injected by the entry. */
export type PageRenderer = (request: { url: URL; signal: AbortSignal; api: ApiClient; nonce: string }) => Promise<Response>;

export type PageOptions = {
  /** Live Stripe: its script and frames are allowed by the pages' CSP. */
  liveStripe: boolean;
  trustProxy: number;
};

/**
 * Every non-API GET is a page: rendered on the server, hydrated in the browser. Page data is
 * fetched through the app itself (`handle`), as the caller, so the server reads what they may.
 */
export function pageRoutes(
  render: PageRenderer,
  handle: (request: Request, from: ConnectionInfo) => Promise<Response>,
  { liveStripe, trustProxy }: PageOptions,
) {
  async function page(request: Request, server: ConnectionInfo["server"]): Promise<Response> {
    const url = new URL(request.url);
    // The caller's cookie, and the origin they addressed as the proxy said it (a share link's url is built from it).
    const headers = Object.fromEntries(
      ["cookie", "x-forwarded-host", "x-forwarded-proto"].flatMap((name) => {
        const value = request.headers.get(name);
        return value ? [[name, value]] : [];
      }),
    );
    const api = createApiClient({
      baseUrl: url.origin,
      headers,
      // `from`: the data is read as this visitor, from their address (e.g. their free quota).
      fetch: ((input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init), { request, server })) as typeof fetch,
    });
    // A fresh nonce per page: React puts it on the scripts it writes, and the CSP allows only those inline.
    const nonce = randomBytes(16).toString("base64");
    const response = await render({ url, signal: request.signal, api, nonce });
    response.headers.set("content-security-policy", pagePolicy({ nonce, liveStripe, https: isHttps(request, trustProxy) }));
    return response;
  }

  return (
    new Elysia()
      .get("/*", ({ request, server }) => page(request, server))
      // Pages are read, never written: say so, and still show the page the address names.
      .options("/*", ({ set }) => {
        set.status = 204;
        set.headers.allow = PAGE_METHODS;
      })
      .all("/*", async ({ request, server }) => {
        const shown = await page(new Request(request.url, { headers: request.headers, signal: request.signal }), server);
        const headers = new Headers(shown.headers);
        headers.set("allow", PAGE_METHODS);
        return new Response(shown.body, { status: shown.status === 404 ? 404 : 405, headers });
      })
  );
}

const PAGE_METHODS = "GET, HEAD, OPTIONS";
