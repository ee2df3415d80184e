import { createApiClient } from "#src/client/api.ts";
import type { App } from "#src/server/app.ts";
import { BASE } from "#tests/support/app.ts";

export type AgentOptions = {
  /**
   * The client address the app sees (sent as X-Forwarded-For, which test apps trust). By default
   * every agent has its own, as different machines would; null sends none ("unknown").
   */
  ip?: string | null;
  /** Cookies shared with another agent: the same browser reaching another app instance. */
  jar?: Map<string, string>;
};

let agents = 0;

/**
 * A visitor of the app: a cookie jar in front of `app.handle`, with the same typed API client
 * the web app and CLI use. Each agent is a different browser.
 */
export function createAgent(app: App, { ip = nextTestIp(), jar = new Map<string, string>() }: AgentOptions = {}) {
  const agentFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (ip && !request.headers.has("x-forwarded-for")) request.headers.set("x-forwarded-for", ip);
    if (jar.size) request.headers.set("cookie", [...jar].map(([k, val]) => `${k}=${val}`).join("; "));
    const response = await app.handle(request);
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(header) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return {
    ip,
    api: createApiClient({ baseUrl: BASE, fetch: agentFetch as typeof fetch }),
    fetch: agentFetch,
    jar,
    /** Raw JSON request, for asserting on statuses and bodies the typed client would reject. */
    async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await agentFetch(BASE + path, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json, text, headers: response.headers };
    },
  };
}

/** An address from 198.18.0.0/15 (reserved for tests), different for every call. */
export function nextTestIp(): string {
  const n = ++agents;
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}
