import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { SHARE_TOKEN_PATTERN } from "#src/contract/shares.ts";

/**
 * A share link's queries: what the link shows, and under the same key a shared
 * tracker's reads (web/lib/tracker-source.ts). Keyed by the link, not by who reads it: the same
 * for every visitor, and kept across a sign-in.
 */
/** What a link shows, as the client reads it (a saved search keyed by provider). */
export type SharedReport = Awaited<ReturnType<ApiClient["getShared"]>>;

export function sharedKey(token: string): readonly unknown[] {
  return ["shared", token];
}

export const sharedQueries = {
  /**
   * What the link shows, or null when it shows nothing (revoked, expired, unknown or not a token
   * at all): an answer, not an error, so that the server's page and the hydrating browser agree.
   */
  view: (api: ApiClient, token: string) =>
    queryOptions({
      queryKey: sharedKey(token),
      queryFn: async (): Promise<SharedReport | null> => {
        if (!SHARE_TOKEN_PATTERN.test(token)) return null;
        try {
          return await api.getShared(token);
        } catch (error) {
          if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
          throw error;
        }
      },
    }),
};
