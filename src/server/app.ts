import { staticPlugin } from "@elysiajs/static";
import { Elysia } from "elysia";
import type { Database } from "#db/client.ts";
import type { Env } from "#src/server/env.ts";
import { healthRoutes } from "#src/server/routes/api/health.ts";
import { pageRoutes } from "#src/server/routes/pages.ts";
import type { AssetManifest } from "#web/render.tsx";

export type AppDeps = {
  env: Env;
  database: Database;
  /** Folder with the hashed client files, and their manifest (scripts/build-assets.ts). */
  assets: { dir: string; manifest: AssetManifest };
};

/** Builds the whole HTTP app without listening: tests drive it with `app.handle(request)`. */
export async function createApp(deps: AppDeps) {
  const assets = await staticPlugin({
    assets: deps.assets.dir,
    prefix: "/assets",
    alwaysStatic: true,
    directive: "immutable",
    maxAge: 31_536_000,
    silent: true,
  });
  return new Elysia()
    .onError(({ code, error, set }) => {
      if (code === "VALIDATION" || code === "PARSE") {
        set.status = 400;
        return { message: code === "PARSE" ? "The request body is not valid JSON" : error.message };
      }
      console.error("Unhandled error", error);
      set.status = 500;
      return { message: "Internal server error" };
    })
    .use(assets)
    .use(healthRoutes(deps.database))
    // Unknown API and asset paths answer 404 in their own format, never with the HTML 404 page.
    .all("/api/*", ({ request, set }) => {
      set.status = 404;
      return { message: `Not found: ${request.method} ${new URL(request.url).pathname}` };
    })
    .get("/assets/*", ({ set }) => {
      set.status = 404;
      return "Not found";
    })
    .use(pageRoutes(deps.assets.manifest));
}

export type App = Awaited<ReturnType<typeof createApp>>;
