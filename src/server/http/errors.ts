import type { Context, ValidationError } from "elysia";
import * as v from "valibot";
import { isDatabaseUnavailable } from "#db/errors.ts";
import type { ErrorBody, ErrorCode } from "#src/contract/errors.ts";
import { DomainError } from "#src/server/services/errors.ts";
import { remainingOf, reportQuota } from "./quota-report.ts";

/** Each error code's HTTP status: the one place codes meet statuses. */
const STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  NOT_SIGNED_IN: 401,
  INVALID_LOGIN: 401,
  PRO_REQUIRED: 403,
  SESSION_REQUIRED: 403,
  ROLE_REQUIRED: 403,
  WRONG_ACCOUNT: 403,
  CSRF: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ACCOUNT_EXISTS: 409,
  SEARCH_CANCELLED: 409,
  TOKEN_LIMIT_REACHED: 409,
  CONFLICT: 409,
  DAILY_LIMIT_REACHED: 429,
  SPEND_LIMIT: 429,
  TOO_MANY_ATTEMPTS: 429,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  SERVER_STOPPING: 503,
  PROVIDERS_FAILED: 502,
  PAYMENT_FAILED: 402,
  BILLING_UNAVAILABLE: 503,
  BILLING_FAILED: 502,
  DATABASE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** An error answer: its status and the `{ code, message }` body (with the searches left, for the free tier). */
export type ErrorAnswer = { status: number; body: ErrorBody };

/** A code's answer: its status and `{ code, message }`. */
function refusal(code: ErrorCode, message: string): ErrorAnswer {
  return { status: STATUS[code], body: { code, message } };
}

export const DATABASE_UNAVAILABLE = "The database is unavailable right now. Please try again in a moment.";
/** Seconds a 503 for a database outage asks the caller to wait. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * What the caller is told about an error. A database that cannot serve is a 503 to retry (said
 * once in the log per error, without the query); anything else that is not a DomainError is our
 * fault: 500, logged.
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof DomainError) {
    const { quota, searchId } = error.options;
    const { status, body } = refusal(error.code, error.message);
    return { status, body: { ...body, ...(searchId ? { id: searchId } : {}), ...(quota ? remainingOf(quota) : {}) } };
  }
  if (isDatabaseUnavailable(error)) {
    console.error(`Database unavailable: ${driverMessage(error)}`);
    return refusal("DATABASE_UNAVAILABLE", DATABASE_UNAVAILABLE);
  }
  console.error("Unhandled error", error);
  return refusal("INTERNAL", "Internal server error");
}

type ErrorContext = Pick<Context, "request" | "set" | "cookie"> & { code: string | number; error: unknown };

/**
 * The app's onError: domain errors get their status, the quota they carry is reported (header
 * and display cookie), unreadable JSON is a 400, and a response that breaks its declared schema
 * is a 500 (a bug of ours, never the caller's).
 */
export function onError(trustProxy: number) {
  return ({ code, error, set, cookie, request }: ErrorContext) => {
    // Elysia wraps what a body parser throws (http/body-limit.ts) in its ParseError.
    if (code === "PARSE" && (error as { cause?: unknown }).cause instanceof DomainError) error = (error as { cause: DomainError }).cause;
    // A route's declared body, query or params schema refused the input: bad input like any other.
    // Its schemas are valibot's (Standard Schema), so Elysia's first issue is valibot's own.
    if (code === "VALIDATION" && (error as ValidationError).type !== "response")
      error = invalidInput((error as ValidationError).valueError as unknown as v.BaseIssue<unknown>);
    // First: Elysia also reads a thrown error's `code`, and ours share names with its own (NOT_FOUND).
    if (error instanceof DomainError) {
      if (error.options.quota) reportQuota({ set, cookie, request }, error.options.quota, trustProxy);
      if (error.options.retryAfterS !== undefined) set.headers["retry-after"] = String(error.options.retryAfterS);
      return answer(set, errorAnswer(error));
    }
    if (code === "PARSE") return answer(set, refusal("INVALID_INPUT", "The request body is not valid JSON"));
    // A method no route takes (POST to a page's path, say).
    if (code === "NOT_FOUND") return answer(set, refusal("NOT_FOUND", `Not found: ${request.method} ${new URL(request.url).pathname}`));
    const failure = errorAnswer(error);
    if (failure.body.code === "DATABASE_UNAVAILABLE") set.headers["retry-after"] = String(DATABASE_RETRY_AFTER_S);
    return answer(set, failure);
  };
}

/** Sets a code's status and gives its body: for the edge's own refusals (CSRF, body limits, unknown calls). */
export function refuse(set: Status, code: ErrorCode, message: string): ErrorBody {
  return answer(set, refusal(code, message));
}

// Any context's `set` (an Elysia hook's, a handler's): only its status is written.
type Status = { status?: number | string };

function answer(set: Status, { status, body }: ErrorAnswer): ErrorBody {
  set.status = status;
  return body;
}

/** Parses an input at the boundary; a bad one is INVALID_INPUT (400) naming what is wrong. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  throw invalidInput(result.issues[0]);
}

/**
 * The one way a bad input is told: INVALID_INPUT (400) with its first issue's message (the
 * contract's own texts), valibot's generic "Invalid …" ones prefixed with the field's path.
 */
function invalidInput(issue: v.BaseIssue<unknown>): DomainError {
  const path = issue.path?.map((p) => String(p.key)).join(".");
  return new DomainError("INVALID_INPUT", issue.message.startsWith("Invalid ") && path ? `${path}: ${issue.message}` : issue.message);
}

/** The driver's own words under drizzle's "Failed query: …" wrapper (which would print the query and its parameters). */
export function driverMessage(error: unknown): string {
  let e = error;
  for (let depth = 0; depth < 6 && e && typeof e === "object" && (e as { cause?: unknown }).cause; depth++) e = (e as { cause: unknown }).cause;
  return e instanceof Error ? `${e.message}${(e as { code?: unknown }).code ? ` (${String((e as { code?: unknown }).code)})` : ""}` : String(e);
}
