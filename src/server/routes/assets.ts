import { readdirSync } from "node:fs";
import { extname, join } from "node:path";
import { Elysia } from "elysia";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

/**
 * The hashed client files under /assets/, each immutable for a year. The build writes Brotli and
 * gzip copies beside them (scripts/build-assets.ts); the smallest one the browser accepts is sent.
 * Files are listed once at start-up; a request for anything else is a plain 404.
 */
export function assetRoutes(dir: string) {
  const names = new Set(readdirSync(dir));
  const files = [...names].filter((name) => !name.endsWith(".gz") && !name.endsWith(".br"));
  return new Elysia().get("/assets/*", ({ params, request, set }) => {
    const name = params["*"];
    if (!files.includes(name)) {
      set.status = 404;
      return "Not found";
    }
    const accepts = request.headers.get("accept-encoding") ?? "";
    const encoding = /\bbr\b/.test(accepts) && names.has(`${name}.br`) ? "br" : /\bgzip\b/.test(accepts) && names.has(`${name}.gz`) ? "gzip" : null;
    const headers: Record<string, string> = {
      "content-type": TYPES[extname(name)] ?? "application/octet-stream",
      "cache-control": "public, max-age=31536000, immutable",
      vary: "accept-encoding",
    };
    if (encoding) headers["content-encoding"] = encoding;
    const file = Bun.file(join(dir, encoding ? `${name}.${encoding === "br" ? "br" : "gz"}` : name));
    return new Response(file, { headers });
  });
}
