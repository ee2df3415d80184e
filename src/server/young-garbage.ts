/**
 * Each answer read leaves its provider's responses, parsed, as garbage: tens of kilobytes of JSON
 * text and objects. Under a run or a burst of searches JavaScriptCore lets the heap grow by hundreds
 * of MB before it collects (a 50 × 3 × 10 tracker run peaked 170 MB higher without this, ADR 060).
 * A young-generation collection every ANSWERS answers keeps the peak near the live data; it costs
 * milliseconds, and measured no CPU overall (it collects less each time).
 */
const ANSWERS = 24;

let read = 0;

/** Called once per answer read: every ANSWERS, collects the young generation. */
export function answerRead(): void {
  read = (read + 1) % ANSWERS;
  if (read === 0) Bun.gc(false);
}
