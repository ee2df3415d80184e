import * as v from "valibot";
import { ERROR_CODES } from "./error-codes.ts";

export { ERROR_CODES, isErrorCode, SERVER_FAULTS } from "./error-codes.ts";

/** One of the API's error codes (error-codes.ts lists them, and what each means). */
export const ErrorCode = v.picklist(ERROR_CODES);
export type ErrorCode = v.InferOutput<typeof ErrorCode>;

/** Every error answer's body (and the search stream's `error` event, less its `type` and `status`). */
export const ErrorBody = v.object({
  code: ErrorCode,
  message: v.string(),
  /** The free searches left today, on refusals and failed searches of the free tier. */
  remainingSearches: v.optional(v.number()),
  /** The saved search a refusal is about: a search cancelled after an answer is kept (409, ADR 030). */
  id: v.optional(v.string()),
});
export type ErrorBody = v.InferOutput<typeof ErrorBody>;
