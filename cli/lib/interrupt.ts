import { EXIT } from "./exit.ts";

/*
 * Ctrl-C (SIGINT): every registered clean-up runs (a search aborts its stream and cancels itself
 * on the server), for a few seconds at most, then the process exits 130. A second Ctrl-C exits
 * at once.
 */

const CLEANUP_LIMIT_MS = 3000;
const cleanups = new Set<() => unknown>();
let interrupted = false;

/** Listens for SIGINT; `aisc` calls it once at start. */
export function installInterruptHandler(): void {
  process.once("SIGINT", () => void interrupt());
}

/** Runs `cleanup` on Ctrl-C until the returned function is called. */
export function onInterrupt(cleanup: () => unknown): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** True once Ctrl-C was pressed: errors caused by the clean-up are not reported. */
export function isInterrupted(): boolean {
  return interrupted;
}

async function interrupt(): Promise<void> {
  interrupted = true;
  process.once("SIGINT", () => process.exit(EXIT.interrupted));
  const settled = Promise.allSettled([...cleanups].map(async (cleanup) => cleanup()));
  await Promise.race([settled, Bun.sleep(CLEANUP_LIMIT_MS)]);
  process.exit(EXIT.interrupted);
}
