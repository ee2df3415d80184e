import type { ErrorCode } from "#src/contract/errors.ts";
import type { Standing } from "./owner.ts";

/*
 * What can go wrong in the product's own terms: the codes of src/contract/errors.ts. Services
 * throw DomainErrors; the HTTP layer maps each code to a status once (src/server/http/errors.ts)
 * and sends it in the body, where the web, the CLI or a scheduler read it.
 */
export type { ErrorCode };

export type DomainErrorOptions = {
  /** The caller's standing after the failure, for refusals and failed searches of the free tier. */
  quota?: Standing;
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
