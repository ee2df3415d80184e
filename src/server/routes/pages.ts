import { Elysia } from "elysia";
import { renderPage, type AssetManifest } from "#web/render.tsx";

/** Every non-API GET is a page: rendered on the server, hydrated in the browser. */
export function pageRoutes(manifest: AssetManifest) {
  return new Elysia().get("/*", ({ request }) => renderPage({ url: new URL(request.url), manifest, signal: request.signal }));
}
