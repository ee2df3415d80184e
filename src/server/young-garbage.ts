/**
 * Each answer read leaves its provider's responses, parsed, as garbage: tens of kilobytes of JSON
 * text and objects. Under a run or a burst of searches JavaScriptCore lets the heap grow by hundreds
 * of MB before it collects (a 50 × 3 × 10 tracker run peaked 170 MB higher without this, ADR 060).
 * A young-generation collection every ANSWERS answers keeps the peak near the live data; it costs
 * milliseconds, and measured no CPU overall (it collects less each time). A saved search read whole
 * counts as the answers it holds: its row's JSON, parsed and checked, leaves about as much again
 * (a run's rollups read all its questions' searches: 57 MB at the end of that run without this).
 */
const ANSWERS = 24;

let read = 0;

/** Called as answers are read, one by one or a saved search's at once: every ANSWERS, collects the young generation. */
export function answersRead(count = 1): void {
  read += count;
  if (read < ANSWERS) return;
  read = 0;
  Bun.gc(false);
}
