import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";

/**
 * The signed-in person's personal API tokens (the profile's "CLI access" card), for the server's
 * prefetch and the browser alike. One person's data: dropped on sign-in and sign-out
 * (personalQueryKeys). The list never holds a token itself, only its first characters.
 */
export const tokenQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: ["tokens"], queryFn: async () => (await api.listTokens()).tokens }),
};
