import { isGroundingRedirect } from "#src/core/urls.ts";

/** Where Gemini's grounding redirects live (GEMINI_REDIRECT_ORIGINS changes it). */
export const GOOGLE_REDIRECT_ORIGINS = ["https://vertexaisearch.cloud.google.com"] as const;

/**
 * Gemini cites `…/grounding-api-redirect/<token>` URLs rather than the pages themselves. The
 * real target is the redirect's Location: one HEAD request each, short timeout, cached. Only
 * redirects on `origins` are followed: a citation is text from outside, and a crafted one must
 * not make the server fetch an address of its choosing (its own metadata service, say). Any
 * other stays unresolved, shown as it came.
 */
export function createRedirectResolver({ origins = GOOGLE_REDIRECT_ORIGINS as readonly string[], timeoutMs = 2500, maxEntries = 5000 } = {}) {
  const cache = new Map<string, Promise<string | null>>();
  const allowed = new Set(origins.map((origin) => new URL(origin).origin));

  return function resolve(url: string, signal?: AbortSignal): Promise<string | null> {
    if (!isGroundingRedirect(url)) return Promise.resolve(url);
    if (!allowed.has(originOf(url))) return Promise.resolve(null);
    let found = cache.get(url);
    if (!found) {
      found = follow(url, timeoutMs, signal);
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
      cache.set(url, found);
      // A failure is not cached: the next search may resolve it.
      found.then((target) => target === null && cache.delete(url));
    }
    return found;
  };
}

export type RedirectResolver = ReturnType<typeof createRedirectResolver>;

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

async function follow(url: string, timeoutMs: number, signal?: AbortSignal): Promise<string | null> {
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, { method: "HEAD", redirect: "manual", signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    const location = response.headers.get("location");
    return response.status >= 300 && response.status < 400 && location ? new URL(location, url).toString() : null;
  } catch {
    return null;
  }
}
