import type { ApiClient } from "#src/client/api.ts";

let client: Promise<ApiClient> | undefined;

/** The real client, with its response schemas, loaded on first use (ADR 006). */
function load(): Promise<ApiClient> {
  return (client ??= import("#src/client/api.ts").then((m) => m.createApiClient()));
}

/**
 * The browser's API client: same-origin, cookies included. Every page's first data is in the
 * HTML, so the first call comes after hydration; until then the client's code is not loaded.
 */
export const api = new Proxy({} as ApiClient, {
  get(_, name: keyof ApiClient) {
    if (name === "searchStream") {
      return async function* (...args: Parameters<ApiClient["searchStream"]>) {
        yield* (await load()).searchStream(...args);
      };
    }
    return (...args: unknown[]) => load().then((c) => (c[name] as (...a: unknown[]) => unknown)(...args));
  },
});
