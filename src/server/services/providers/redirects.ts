import { isGroundingRedirect } from "#src/core/urls.ts";

/**
 * Gemini cites `…/grounding-api-redirect/<token>` URLs rather than the pages themselves. The
 * real target is the redirect's Location: one HEAD request each, short timeout, cached.
 */
export function createRedirectResolver({ timeoutMs = 2500, maxEntries = 5000 } = {}) {
  const cache = new Map<string, Promise<string | null>>();

  return function resolve(url: string, signal?: AbortSignal): Promise<string | null> {
    if (!isGroundingRedirect(url)) return Promise.resolve(url);
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
