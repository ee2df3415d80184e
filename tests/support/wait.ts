/**
 * The one way a test waits for something it cannot be told about: polls `condition` (it may query
 * a database, a server or a subprocess's output) until it returns a truthy value, which it returns.
 * `timeoutMs` is a generous bound that turns a hang into a failure naming `what`, never a timing
 * assertion. Polls often at first, then every 50 ms, so a condition that costs a request or a
 * query does not crowd out the work it waits for.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what = "the condition", timeoutMs = 30_000 }: { what?: string; timeoutMs?: number } = {},
): Promise<Truthy<T>> {
  const deadline = performance.now() + timeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (performance.now() > deadline) throw new Error(`never happened: ${what} (waited ${timeoutMs} ms)`);
    await Bun.sleep(pause);
  }
}

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;
