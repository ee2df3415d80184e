import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import type { EmailConfirmation, Unsubscribed } from "#src/contract/notifications.ts";
import type { ReportConfirmation, ReportUnsubscribed } from "#src/contract/reports.ts";

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

/**
 * The pages a tracker report's recipient opens (ADR 066): what a confirmation link is for, and what
 * following an unsubscribe link did. A link that names nobody (not ours, or a removed recipient) is null.
 */
export const reportLinkQueries = {
  confirmation: (api: ApiClient, token: string) =>
    queryOptions({
      queryKey: ["report-confirm", token],
      queryFn: (): Promise<ReportConfirmation | null> => orNullIfNotFound(api.getReportConfirmation(token)),
    }),
  /** Following the link is unsubscribing: done once, as the page is rendered. */
  unsubscribe: (api: ApiClient, token: string) =>
    queryOptions({
      queryKey: ["report-unsubscribe", token],
      queryFn: (): Promise<ReportUnsubscribed | null> => orNullIfNotFound(api.unsubscribeReport(token)),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    }),
};
