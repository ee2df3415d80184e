import { ValiError } from "valibot";
import { ApiError } from "#src/client/errors.ts";
import type { ErrorCode } from "#src/contract/errors.ts";
import { visibleText } from "#src/core/display-text.ts";

/** The exit codes, as `aisc --help` and the README list them. */
export const EXIT = {
  ok: 0,
  usage: 1,
  /** Not signed in, or the token is unknown or revoked. */
  auth: 2,
  /** The daily quota is used up, or the option needs Pro. */
  limit: 3,
  /** The server failed, could not be reached, or every provider failed. */
  server: 4,
  /** No such search (or batch, token, tracker or run) among yours. */
  notFound: 5,
  /** A tracker run followed with `aisc track run --wait` ended partial: some answers failed, the rest are saved. */
  partialRun: 6,
  interrupted: 130,
} as const;
export type ExitReason = keyof typeof EXIT;

/** An error the CLI itself raises, with the exit code it ends with. */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    readonly reason: ExitReason,
    message: string,
  ) {
    super(message);
  }
}

export const NOT_SIGNED_IN = "Not signed in: run `aisc login` or set AISC_TOKEN";

/**
 * Each error code of the API as an exit reason, decided on the code and never the HTTP status (a
 * 403 is a Pro refusal, a token's missing scope or a cross-site refusal). A new code does not
 * compile until it is placed here.
 */
const REASON: Record<ErrorCode, ExitReason> = {
  INVALID_INPUT: "usage",
  METHOD_NOT_ALLOWED: "usage",
  ACCOUNT_EXISTS: "usage",
  CONFLICT: "usage",
  TOKEN_LIMIT_REACHED: "usage",
  PAYLOAD_TOO_LARGE: "usage",
  SEARCH_CANCELLED: "usage",
  NOT_SIGNED_IN: "auth",
  INVALID_LOGIN: "auth",
  DAILY_LIMIT_REACHED: "limit",
  SPEND_LIMIT: "limit",
  PRO_REQUIRED: "limit",
  TOO_MANY_ATTEMPTS: "limit",
  RATE_LIMITED: "limit",
  PAYMENT_FAILED: "limit",
  // What a token may not do (a browser session's), and a refusal the CLI cannot cause (it sends no Origin): a limit, like Pro's.
  SESSION_REQUIRED: "limit",
  // A workspace role the caller lacks: theirs to ask an admin for, like a limit.
  ROLE_REQUIRED: "limit",
  WRONG_ACCOUNT: "auth",
  CSRF: "limit",
  NOT_FOUND: "notFound",
  PROVIDERS_FAILED: "server",
  BILLING_FAILED: "server",
  BILLING_UNAVAILABLE: "server",
  SERVER_STOPPING: "server",
  DATABASE_UNAVAILABLE: "server",
  INTERNAL: "server",
};

/** A failed call as an exit reason: by its code. An answer without one did not come from our API (a proxy in front of it): its status is all there is. */
export function reasonOf(error: ApiError): ExitReason {
  return error.code ? REASON[error.code] : reasonOfStatus(error.status);
}

function reasonOfStatus(status: number): ExitReason {
  if (status === 401) return "auth";
  if (status === 402 || status === 403 || status === 429) return "limit";
  if (status === 404) return "notFound";
  if (status >= 500) return "server";
  return "usage";
}

/**
 * What to tell the person about anything a command threw, and how to exit. The server's message
 * may quote what was sent (a name, a query): it is shown through visibleText, on one line.
 */
export function describeError(error: unknown, server: string): { reason: ExitReason; message: string } {
  if (error instanceof CliError) return { reason: error.reason, message: error.message };
  if (error instanceof ApiError) return { reason: reasonOf(error), message: visibleText(error.serverMessage ?? error.message) };
  if (error instanceof ValiError) return { reason: "server", message: `unexpected answer from ${server}: ${error.message}` };
  if (isNetworkError(error)) return { reason: "server", message: `could not reach ${server}` };
  if (isFileError(error)) return { reason: "usage", message: error.message };
  return { reason: "server", message: error instanceof Error ? error.message : String(error) };
}

// fetch rejects with a TypeError carrying a system code (ECONNREFUSED, ENOTFOUND, …) when nothing answers.
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && typeof (error as { code?: unknown }).code === "string";
}

// A file that cannot be written (--out in a missing folder, no permission).
function isFileError(error: unknown): error is Error {
  return error instanceof Error && typeof (error as { syscall?: unknown }).syscall === "string";
}
