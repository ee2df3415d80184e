/**
 * Whole-word patterns for names in answer text: a match may not touch another letter or digit
 * on either side. Made once per pattern and kept: the same names come back in every iteration
 * and search, and a Unicode pattern built per name per answer leaves a burst of searches with a
 * pile of regexes waiting for the collector (docs/performance.md).
 */
const cache = new Map<string, RegExp>();
const CACHE_SIZE = 4096;

/** `body` (already a pattern, e.g. from escapeRegExp) between whole-word boundaries, global: a new pattern each call. */
export function wholeWordPattern(body: string, flags: "gu" | "giu"): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, flags);
}

/** wholeWordPattern, made once per body and flags and shared. Use with matchAll, which never moves the shared lastIndex. */
export function wholeWords(body: string, flags: "gu" | "giu"): RegExp {
  const key = `${flags} ${body}`;
  let pattern = cache.get(key);
  if (pattern) {
    cache.delete(key); // re-inserted below: the Map's order is the least recently used first
  } else {
    pattern = wholeWordPattern(body, flags);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, pattern);
  return pattern;
}

/** `text` as a pattern that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
