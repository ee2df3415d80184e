export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** At most `n` of the given tasks run at once; resolves each task's own promise. */
export function createLimiter(n: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function limit<T>(task: () => Promise<T>): Promise<T> {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
