/** A promise that carries React's `status`/`value` fields once settled: `use()` then reads it synchronously. */
type TrackedPromise<T> = Promise<T> & { status?: "pending" | "fulfilled" | "rejected"; value?: T };

/**
 * Loads once and remembers the promise (a failed load is tried again next time). Already loaded,
 * `use()` reads it without suspending: hydration and preloaded navigations never show a fallback.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: TrackedPromise<T> | undefined;
  return () => {
    if (promise) return promise;
    const tracked: TrackedPromise<T> = load();
    tracked.status = "pending";
    tracked.then(
      (value) => Object.assign(tracked, { status: "fulfilled", value }),
      () => {
        tracked.status = "rejected";
        promise = undefined;
      },
    );
    promise = tracked;
    return tracked;
  };
}
