import { createApiClient } from "#src/client/api.ts";

/** The browser's API client: same-origin, cookies included. */
export const api = createApiClient();
