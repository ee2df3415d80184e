/**
 * Pages already rendered, for a moment. A page's HTML is a function of its address and the data
 * its boot carries (the visitor's account, quota and status are in that data), plus the clock for
 * relative times; so the same address with the same data, within a second, is answered with the
 * HTML written for the first, its nonce swapped for the request's own. The page's data is still
 * read for every request: only React's render is saved. Bounded in entries and in age.
 */
export type PageCache = {
  /** The page for `key` when one younger than the cache's age is kept, with `nonce` in place of the one it was written with. */
  get(key: string, nonce: string): string | undefined;
  /** Keeps `html`, written with `nonce`, for `key`. */
  set(key: string, html: string, nonce: string): void;
};

const MARK = "\u0000nonce\u0000";

export function createPageCache({ maxEntries = 200, maxAgeMs = 1000, now = () => performance.now() } = {}): PageCache {
  const pages = new Map<string, { html: string; at: number }>();
  return {
    get(key, nonce) {
      const page = pages.get(key);
      if (!page) return undefined;
      if (now() - page.at > maxAgeMs) {
        pages.delete(key);
        return undefined;
      }
      return page.html.replaceAll(MARK, nonce);
    },
    set(key, html, nonce) {
      // The nonce is 128 random bits: where it appears, it is the nonce.
      pages.delete(key);
      pages.set(key, { html: html.replaceAll(nonce, MARK), at: now() });
      // The oldest goes first (a Map keeps the order keys were set in).
      for (const oldest of pages.keys()) {
        if (pages.size <= maxEntries) break;
        pages.delete(oldest);
      }
    },
  };
}

/** What a page's HTML depends on besides the clock: its address and its boot data, without the times its data was read at. */
export function pageKey(url: URL, bootJson: string): string {
  return `${url.pathname}${url.search}\n${bootJson.replace(/"(dataUpdatedAt|errorUpdatedAt|dehydratedAt)":\d+/g, "")}`;
}
