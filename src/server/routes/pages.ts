import { Elysia } from "elysia";
import { createApiClient } from "#src/client/api.ts";
import type { ConnectionInfo } from "#src/server/forwarded.ts";
import { renderPage, type AssetManifest } from "#web/render.tsx";

/**
 * Every non-API GET is a page: rendered on the server, hydrated in the browser. Page data is
 * fetched through the app itself (`handle`), as the caller, so the server reads what they may.
 */
export function pageRoutes(manifest: AssetManifest, handle: (request: Request, from: ConnectionInfo) => Promise<Response>) {
  return new Elysia().get("/*", ({ request, server }) => {
    const url = new URL(request.url);
    const cookie = request.headers.get("cookie");
    const api = createApiClient({
      baseUrl: url.origin,
      headers: cookie ? { cookie } : {},
      // `from`: the data is read as this visitor, from their address (e.g. their free quota).
      fetch: ((input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init), { request, server })) as typeof fetch,
    });
    return renderPage({ url, manifest, signal: request.signal, api });
  });
}
