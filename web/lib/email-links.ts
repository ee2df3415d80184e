import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import type { EmailConfirmation, Unsubscribed } from "#src/contract/notifications.ts";

/**
 * The pages e-mail links open (ADR 053), keyed by the link: what a confirmation link is for, and
 * what following an unsubscribe link turned off. A link that is not valid is null, an answer
 * rather than an error, so that the server's page and the hydrating browser agree.
 */
export const emailLinkQueries = {
  confirmation: (api: ApiClient, token: string) =>
    queryOptions({
      queryKey: ["email-confirm", token],
      queryFn: (): Promise<EmailConfirmation | null> => orNullIfNotFound(api.getEmailConfirmation(token)),
    }),
  /** Following the link is unsubscribing: done once, as the page is rendered (again is the same: it is off). */
  unsubscribe: (api: ApiClient, token: string) =>
    queryOptions({
      queryKey: ["email-unsubscribe", token],
      queryFn: (): Promise<Unsubscribed | null> => orNullIfNotFound(api.unsubscribeEmail(token)),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    }),
};

async function orNullIfNotFound<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
