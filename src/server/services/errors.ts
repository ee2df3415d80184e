import type { Quota } from "./quota/standing.ts";

/**
 * What can go wrong in the product's own terms. Services throw these; the HTTP layer maps each
 * code to a status once (src/server/http/errors.ts), and a CLI or scheduler can read the code.
 */
export const ErrorCode = {
  /** The input breaks a rule (a field, an iteration count the tier does not offer). */
  INVALID_INPUT: "INVALID_INPUT",
  NOT_SIGNED_IN: "NOT_SIGNED_IN",
  INVALID_LOGIN: "INVALID_LOGIN",
  /** The feature or option needs a Pro subscription. */
  PRO_REQUIRED: "PRO_REQUIRED",
  NOT_FOUND: "NOT_FOUND",
  /** An API token asked for what needs a browser session (managing tokens, billing, the account), or a scope it lacks. */
  SESSION_REQUIRED: "SESSION_REQUIRED",
  /** The username or email is already in use. */
  ACCOUNT_EXISTS: "ACCOUNT_EXISTS",
  /** A newer search, a cancel call or the caller going away stopped the search. */
  SEARCH_CANCELLED: "SEARCH_CANCELLED",
  DAILY_LIMIT_REACHED: "DAILY_LIMIT_REACHED",
  TOO_MANY_ATTEMPTS: "TOO_MANY_ATTEMPTS",
  /** The thing is in a state that does not allow it: a search still running, variants that already ran. */
  CONFLICT: "CONFLICT",
  /** The user has MAX_LIVE_TOKENS live tokens already. */
  TOKEN_LIMIT_REACHED: "TOKEN_LIMIT_REACHED",
  /** The request body is over its limit. */
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  /** The server is stopping: a search is refused, or one running was stopped (what finished is saved). */
  SERVER_STOPPING: "SERVER_STOPPING",
  /** Every provider failed: nothing to show. */
  PROVIDERS_FAILED: "PROVIDERS_FAILED",
  /** The card was declined, or the payment could not be taken (Stripe's message). */
  PAYMENT_FAILED: "PAYMENT_FAILED",
  /** Payments are not configured here (production without Stripe keys). */
  BILLING_UNAVAILABLE: "BILLING_UNAVAILABLE",
  /** Stripe could not be reached or refused the request. */
  BILLING_FAILED: "BILLING_FAILED",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export type DomainErrorOptions = {
  /** The caller's standing after the failure, for refusals and failed searches of the free tier. */
  quota?: Quota;
  /** Seconds to wait before trying again (TOO_MANY_ATTEMPTS, SERVER_STOPPING). */
  retryAfterS?: number;
  /** The saved search a stopped search left, with what had finished (SEARCH_CANCELLED after an answer, ADR 030). */
  searchId?: string;
};

/** A failure the caller should hear about, in the product's words (`message` is shown as is). */
export class DomainError extends Error {
  override name = "DomainError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
  }
}
