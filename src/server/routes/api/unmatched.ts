import { Elysia } from "elysia";
import { refuse } from "#src/server/http/errors.ts";
import { forTokens } from "#src/server/http/token-access.ts";

type RouteTable = () => ReadonlyArray<{ method: string; path: string; handler?: unknown }>;

/**
 * Requests to the API (and /healthz) that no route takes answer in the API's format, never with
 * the HTML 404 page: OPTIONS is 204 naming the methods, another method of a path that exists is
 * 405 with `Allow`, anything else 404. Declared for GET and OPTIONS as well as ALL, because a
 * method's own wildcard (the pages' GET /* and OPTIONS /*) is matched before ALL.
 */
export function unmatchedApiRoutes(routes: RouteTable) {
  let patterns: Array<{ pattern: RegExp; method: string }> | undefined;
  const methodsFor = (path: string): string[] => {
    patterns ??= routes()
      // The app's own routes: not wildcards, and not these answers themselves.
      .filter((route) => !route.path.includes("*") && route.method !== "ALL" && route.handler !== answer)
      .map((route) => ({ method: route.method, pattern: new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+")}$`) }));
    const methods = new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method));
    if (methods.has("GET")) methods.add("HEAD");
    if (methods.size > 0) methods.add("OPTIONS");
    return [...methods];
  };

  type Context = { request: Request; set: { status?: number | string; headers: Record<string, string | number> } };
  const answer = ({ request, set }: Context) => {
    const path = new URL(request.url).pathname;
    const allowed = methodsFor(path);
    if (allowed.length === 0) return refuse(set, "NOT_FOUND", `Not found: ${request.method} ${path}`);
    set.headers.allow = allowed.join(", ");
    if (request.method === "OPTIONS") {
      set.status = 204;
      return;
    }
    return refuse(set, "METHOD_NOT_ALLOWED", `Method not allowed: ${request.method} ${path} (allowed: ${allowed.join(", ")})`);
  };
  // Anyone, token or not, may hear that a path or method does not exist.
  const hidden = { detail: forTokens("public", { hide: true }) };
  return (
    new Elysia()
      .get("/api/*", answer, hidden)
      .options("/api/*", answer, hidden)
      .all("/api/*", answer, hidden)
      // /healthz has its GET; the rest of its methods, here.
      .options("/healthz", answer, hidden)
      .all("/healthz", answer, hidden)
  );
}
