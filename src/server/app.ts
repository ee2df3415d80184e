import { Elysia } from "elysia";
import type { Database } from "#db/client.ts";
import { csrf } from "#src/server/csrf.ts";
import type { Env } from "#src/server/env.ts";
import { relayClientIp, type ConnectionInfo } from "#src/server/forwarded.ts";
import { HttpError } from "#src/server/http-error.ts";
import { authRoutes } from "#src/server/routes/api/auth.ts";
import { apiDocs } from "#src/server/routes/api/docs.ts";
import { assetRoutes } from "#src/server/routes/assets.ts";
import { healthRoutes } from "#src/server/routes/api/health.ts";
import { createMeter, quotaRoutes } from "#src/server/routes/api/quota.ts";
import { searchRoutes } from "#src/server/routes/api/search.ts";
import { pageRoutes } from "#src/server/routes/pages.ts";
import { createAccounts } from "#src/server/services/auth/accounts.ts";
import { identity } from "#src/server/services/auth/identity.ts";
import { createSessions } from "#src/server/services/auth/sessions.ts";
import { createSigner } from "#src/server/services/auth/signed.ts";
import { createThrottle } from "#src/server/services/auth/throttle.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { createQuotaService } from "#src/server/services/quota/index.ts";
import { createSearchService } from "#src/server/services/search/index.ts";
import type { Providers } from "#src/server/services/search/run.ts";
import { createSearchStore } from "#src/server/services/search/store.ts";
import type { AssetManifest } from "#web/render.tsx";

export type AppDeps = {
  env: Env;
  database: Database;
  /** Folder with the hashed client files, and their manifest (scripts/build-assets.ts). */
  assets: { dir: string; manifest: AssetManifest };
  /** One adapter per connected provider (src/server/services/providers). */
  providers: Providers;
  retry?: RetryPolicy;
  /** The time sessions, login throttling and the daily quota go by; tests move it. */
  clock?: () => Date;
};

/** Builds the whole HTTP app without listening: tests drive it with `app.handle(request)`. */
export async function createApp(deps: AppDeps) {
  const { db } = deps.database;
  const secret = deps.env.SESSION_SECRET;
  const trustProxy = deps.env.TRUST_PROXY;
  const clock = deps.clock ?? (() => new Date());
  const sessions = createSessions({ db, secret, clock });
  const quota = createQuotaService({ db, secret, clock });
  const accounts = createAccounts({ db, onSignIn: quota.adopt });
  const loginThrottle = createThrottle({ limit: 10, windowMs: 60_000, clock });
  const meter = createMeter(quota, { trustProxy });
  const who = identity(createSigner(secret), { sessions, trustProxy });
  const search = createSearchService({ store: createSearchStore(deps.database.db), providers: deps.providers, concurrency: deps.env.SEARCH_CONCURRENCY, retry: deps.retry });
  const app = new Elysia()
    .onError(({ code, error, set }) => {
      if (error instanceof HttpError) {
        set.status = error.status;
        return { ...error.extra, message: error.message };
      }
      if (code === "VALIDATION" || code === "PARSE") {
        set.status = 400;
        return { message: code === "PARSE" ? "The request body is not valid JSON" : error.message };
      }
      console.error("Unhandled error", error);
      set.status = 500;
      return { message: "Internal server error" };
    })
    .use(csrf({ trustProxy }))
    .use(assetRoutes(deps.assets.dir))
    .use(apiDocs())
    .use(healthRoutes(deps.database))
    .use(authRoutes({ accounts, sessions, quota, loginThrottle, trustProxy }, who))
    .use(quotaRoutes(meter, who))
    .use(searchRoutes(search, who, meter))
    // Unknown API and asset paths answer 404 in their own format, never with the HTML 404 page.
    .all("/api/*", ({ request, set }) => {
      set.status = 404;
      return { message: `Not found: ${request.method} ${new URL(request.url).pathname}` };
    })
    .use(pageRoutes(deps.assets.manifest, handle));
  // Pages fetch their data through the app itself; declared with its type to break the cycle.
  function handle(request: Request, from: ConnectionInfo): Promise<Response> {
    return app.handle(relayClientIp(request, from, trustProxy));
  }
  return app;
}

export type App = Awaited<ReturnType<typeof createApp>>;
