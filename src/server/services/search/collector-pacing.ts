/** How often the collector is asked to run while searches run. */
export const COLLECTOR_PACE_MS = 100;

/**
 * While any search runs, asks the JavaScript collector to run every `paceMs`; never at idle.
 * Answers arrive in bursts and parsing and extracting them makes garbage fast. The engine's own
 * pacing, sized for a machine's whole RAM, lets that pile up before collecting, and the process
 * keeps the pages afterwards; asked along the way, the peak is lower at the same CPU time
 * (figures in docs/performance.md).
 */
export function createCollectorPacing(collect: () => void = () => Bun.gc(false), paceMs = COLLECTOR_PACE_MS) {
  let running = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    /** One more search running; call the returned function once it has ended. */
    begin(): () => void {
      if (running++ === 0) {
        timer = setInterval(collect, paceMs);
        timer.unref(); // never what keeps the process alive
      }
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--running === 0) clearInterval(timer);
      };
    },
  };
}
