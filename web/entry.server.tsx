/**
 * The server's entry: the HTTP server (src/server) with this web app's renderer plugged in. The
 * counterpart of entry.client.tsx; dependencies point from here into src/, never back.
 *
 *   bun web/entry.server.tsx
 */
import { start } from "#src/server/index.ts";
import { loadPageRenderer } from "#web/render.tsx";

await start({ renderer: loadPageRenderer });
