/*
 * The API's error codes as plain values, without schemas: the web's first page and the API
 * client's ApiError read them without bringing valibot along (ADR 006). errors.ts holds the schemas.
 */

/**
 * What can go wrong, as every error answer of the API names it: `{ code, message }`. The web and
 * the CLI decide on the code, never on the HTTP status (a 403 is both "Pro required" and a
 * cross-site refusal); `message` is for people and may change. The server maps each code to its
 * status once (src/server/http/errors.ts).
 */
export const ERROR_CODES = [
  /** The input breaks a rule: a field, unreadable JSON, an iteration count the tier does not offer. */
  "INVALID_INPUT",
  "NOT_SIGNED_IN",
  "INVALID_LOGIN",
  /** The feature or option needs a Pro subscription. */
  "PRO_REQUIRED",
  /** An API token asked for what needs a browser session (managing tokens, billing, the account), or a scope it lacks. */
  "SESSION_REQUIRED",
  /** A workspace member without the role a call needs (the message names it, ADR 071). */
  "ROLE_REQUIRED",
  /** An invitation that names another e-mail address than the signed-in account's. */
  "WRONG_ACCOUNT",
  /** A state-changing request made by another site's page (http/csrf.ts). */
  "CSRF",
  /** No such thing among the caller's, or no such API call. */
  "NOT_FOUND",
  /** The call exists, not with this method. */
  "METHOD_NOT_ALLOWED",
  /** The username is already in use. */
  "ACCOUNT_EXISTS",
  /** A newer search, a cancel call or the caller going away stopped the search. */
  "SEARCH_CANCELLED",
  /** The thing is in a state that does not allow it: a search still running, variants that already ran. */
  "CONFLICT",
  /** The user has the most live API tokens allowed already. */
  "TOKEN_LIMIT_REACHED",
  /** The request body is over its limit. */
  "PAYLOAD_TOO_LARGE",
  /** The free tier's searches for today are used up. */
  "DAILY_LIMIT_REACHED",
  /** The search would take today's spend past the account's or the deployment's daily limit, or reached it (ADR 041). */
  "SPEND_LIMIT",
  /** Too many login or registration attempts: wait (Retry-After) and try again. */
  "TOO_MANY_ATTEMPTS",
  /** A share link was read more often than its per-minute limit allows, or a confirmation e-mail was asked for too soon: wait (Retry-After) and try again. */
  "RATE_LIMITED",
  /** The card was declined, or the payment could not be taken (Stripe's message). */
  "PAYMENT_FAILED",
  /** Every provider failed: nothing to show. */
  "PROVIDERS_FAILED",
  /** Stripe could not be reached or refused the request. */
  "BILLING_FAILED",
  /** Payments are not configured here (production without Stripe keys). */
  "BILLING_UNAVAILABLE",
  /** The server is stopping: a search is refused, or one running was stopped (what finished is saved). */
  "SERVER_STOPPING",
  /** The database cannot serve right now: try again (Retry-After). */
  "DATABASE_UNAVAILABLE",
  /** A fault of ours, logged on the server. */
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The server's side, not the caller's (the 5xx answers): a client says so in its own words, and may try again. */
export const SERVER_FAULTS: ReadonlySet<ErrorCode> = new Set([
  "PROVIDERS_FAILED",
  "BILLING_FAILED",
  "BILLING_UNAVAILABLE",
  "SERVER_STOPPING",
  "DATABASE_UNAVAILABLE",
  "INTERNAL",
]);

/** Whether a value is one of the codes (an answer from something in front of the server has none). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}
