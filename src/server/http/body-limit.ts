import { Elysia } from "elysia";
import { isStorableText } from "#src/core/storable-text.ts";
import { STRIPE_SIM_PATH } from "#src/server/services/billing/config.ts";
import { DomainError } from "#src/server/services/errors.ts";
import { refuse } from "./errors.ts";

const KB = 1024;

/** What a JSON call may send: the longest valid body (a 500-character query in \u escapes, say) with room to spare. */
export const DEFAULT_BODY_LIMIT = 16 * KB;

/**
 * The calls that take more, by path prefix. The brand lens (21 brands × 11 names × 80
 * characters) and variant batches (20 variants × 500 characters) fit in 64 KB even in
 * non-Latin scripts, a saved set's edits (20 × a 500-character query and reasoning) in 128 KB;
 * Stripe's events (an invoice with its lines) get 256 KB.
 */
const LARGER: ReadonlyArray<readonly [prefix: string, bytes: number]> = [
  ["/api/stripe/webhook", 256 * KB],
  ["/api/user/brand-lens", 64 * KB],
  ["/api/variant-batches", 64 * KB],
  ["/api/variants", 128 * KB],
];

/** Where a body is read at all: the API and the Stripe simulator's relay. Pages take none (405). */
const READS_BODIES = ["/api/", `${STRIPE_SIM_PATH}/`];

export function bodyLimitFor(path: string): number {
  return LARGER.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1] ?? DEFAULT_BODY_LIMIT;
}

/** The bytes a request sent, as read by the parser: for routes that check a signature over them. */
const rawBodies = new WeakMap<Request, string>();
export function rawBody(request: Request): string {
  return rawBodies.get(request) ?? "";
}

/**
 * Every request body is read here, once, and never past its limit: a declared Content-Length over
 * it is refused before reading (413), and a body without one is counted as it streams in and
 * dropped at the limit. JSON is parsed (unreadable JSON is a 400); anything else stays text.
 * Elysia runs this before any route's own parser, `parse: "none"` included.
 * Without this, Bun buffers up to 128 MB per request for whoever asks.
 */
export function bodyLimit() {
  return new Elysia({ name: "body-limit" })
    .onRequest(({ request, set }) => {
      // No text we keep may hold NUL: PostgreSQL refuses it (22021), whatever the field.
      if (/%00/.test(request.url) && new URL(request.url).pathname.startsWith("/api/")) {
        return refuse(set, "INVALID_INPUT", BAD_TEXT_MESSAGE);
      }
      const declared = request.headers.get("content-length");
      if (declared === null || request.method === "GET" || request.method === "HEAD") return;
      const path = new URL(request.url).pathname;
      if (!READS_BODIES.some((prefix) => path.startsWith(prefix))) return;
      if (!/^\d{1,15}$/.test(declared)) {
        return refuse(set, "INVALID_INPUT", "Content-Length must be a number of bytes");
      }
      const limit = bodyLimitFor(path);
      if (Number(declared) > limit) {
        return refuse(set, "PAYLOAD_TOO_LARGE", tooLarge(limit));
      }
    })
    .onParse({ as: "global" }, async ({ request }, contentType) => {
      // The context's `path` is not set yet when Bun's compiled handler parses: read the URL.
      const path = new URL(request.url).pathname;
      if (!READS_BODIES.some((prefix) => path.startsWith(prefix))) return "";
      const text = await readBounded(request, bodyLimitFor(path));
      rawBodies.set(request, text);
      if (!/^application\/(.+\+)?json\b/i.test(contentType)) return text;
      // An empty body has no fields: the call names the first one it needs. (Never undefined:
      // Elysia would then run its own parser on the already-read body.)
      if (text.trim() === "") return {};
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new DomainError("INVALID_INPUT", "The request body is not valid JSON");
      }
      if (hasBadText(parsed)) throw new DomainError("INVALID_INPUT", BAD_TEXT_MESSAGE);
      return parsed;
    });
}

const BAD_TEXT_MESSAGE = "Text must be valid Unicode, without NUL characters";

/**
 * Whether a parsed JSON value holds text PostgreSQL cannot keep, in a key or a string: NUL
 * (refused in text) or a lone surrogate such as "\ud800" (refused in jsonb).
 */
function hasBadText(value: unknown): boolean {
  const bad = (text: string) => !isStorableText(text);
  if (typeof value === "string") return bad(value);
  if (Array.isArray(value)) return value.some(hasBadText);
  if (value && typeof value === "object") return Object.entries(value).some(([key, child]) => bad(key) || hasBadText(child));
  return false;
}

function tooLarge(limit: number): string {
  return `The request body is too large: at most ${limit / KB} KB`;
}

/** The body as text, read chunk by chunk and abandoned as soon as it passes `limit` bytes. */
async function readBounded(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new DomainError("PAYLOAD_TOO_LARGE", tooLarge(limit));
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
