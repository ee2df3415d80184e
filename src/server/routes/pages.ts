import { Elysia } from "elysia";
import { createApiClient, type ApiClient } from "#src/client/api.ts";
import type { ConnectionInfo } from "#src/server/http/forwarded.ts";

/** What renders a page: the web app's server renderer (web/render.tsx), injected by the entry. */
export type PageRenderer = (request: { url: URL; signal: AbortSignal; api: ApiClient }) => Promise<Response>;

/**
 * Every non-API GET is a page: rendered on the server, hydrated in the browser. Page data is
 * fetched through the app itself (`handle`), as the caller, so the server reads what they may.
 */
export function pageRoutes(render: PageRenderer, handle: (request: Request, from: ConnectionInfo) => Promise<Response>) {
  return new Elysia().get("/*", ({ request, server }) => {
    const url = new URL(request.url);
    const cookie = request.headers.get("cookie");
    const api = createApiClient({
      baseUrl: url.origin,
      headers: cookie ? { cookie } : {},
      // `from`: the data is read as this visitor, from their address (e.g. their free quota).
      fetch: ((input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init), { request, server })) as typeof fetch,
    });
    return render({ url, signal: request.signal, api });
  });
}
