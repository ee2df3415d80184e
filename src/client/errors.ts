import { isErrorCode, type ErrorCode } from "#src/contract/error-codes.ts";

/** Spec §8: a failed call's message is "<status>: <body text>", or the status text when the body is empty. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
  }

  /** The body's JSON object (`{ code, message, ... }`), or undefined when the body is not one. */
  get json(): Record<string, unknown> | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined; // not JSON
    }
  }

  /** What went wrong, from the contract's list: what clients decide on (never the status). Undefined when something other than our API answered. */
  get code(): ErrorCode | undefined {
    const code = this.json?.code;
    return isErrorCode(code) ? code : undefined;
  }

  /** The server's `{ message }` when the body carries one. */
  get serverMessage(): string | undefined {
    const message = this.json?.message;
    return typeof message === "string" ? message : undefined;
  }

  /** The free searches left, on refusals and failed searches of the free tier. */
  get remainingSearches(): number | undefined {
    const remaining = this.json?.remainingSearches;
    return typeof remaining === "number" ? remaining : undefined;
  }
}
