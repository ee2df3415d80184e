import * as v from "valibot";
import type { SearchRequest } from "#src/contract/search.ts";
import { createHttp, type HttpOptions } from "#src/client/http.ts";

/** The typed API client, shared by the web app and the CLI. */
export function createApiClient(options: HttpOptions = {}) {
  const http = createHttp(options);
  return {
    search: (request: SearchRequest) => http("POST", "/api/search", v.unknown(), request),
    health: () => http("GET", "/healthz", v.object({ ok: v.literal(true), db: v.picklist(["pglite", "postgres"]) })),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
