/** Seconds a search refused during a drain is asked to wait: about a restart. */
export const RESTART_RETRY_AFTER_S = 5;

/** What a drain did: the searches running when it began, and how many of them the grace cut short. */
export type DrainReport = { inFlight: number; interrupted: number };

/**
 * The searches running on this instance, so that a clean stop (SIGTERM) can let them finish: once
 * draining, no new search starts; those running get `graceMs`, then are aborted with
 * ServerStoppingError (each saves what finished, marked interrupted) and waited for.
 */
export function createRunTracker() {
  const running = new Set<AbortController>();
  const waiting: Array<() => void> = [];
  let stopping = false;
  const idle = () => new Promise<void>((resolve) => (running.size ? waiting.push(resolve) : resolve()));

  return {
    /** True once a drain has begun: a new search is refused. */
    get stopping(): boolean {
      return stopping;
    },
    /** Counts a run among those a drain waits for; call the returned function once it is saved. */
    add(controller: AbortController): () => void {
      running.add(controller);
      return () => {
        running.delete(controller);
        if (!running.size) for (const resolve of waiting.splice(0)) resolve();
      };
    },
    async drain(graceMs: number): Promise<DrainReport> {
      stopping = true;
      const inFlight = running.size;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      // A run already cancelled is only saving; it is waited for, not counted.
      const late = [...running].filter((controller) => !controller.signal.aborted);
      for (const controller of late) controller.abort(new ServerStoppingError());
      await idle();
      return { inFlight, interrupted: late.length };
    },
  };
}

/** Why a search is aborted when its server stops: unlike a cancel, what finished is kept. */
export class ServerStoppingError extends Error {
  override name = "ServerStoppingError";
  constructor() {
    super("The server is stopping");
  }
}
