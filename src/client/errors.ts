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

  /** The body's JSON object (`{ message, ... }`), or undefined when the body is not one. */
  get json(): Record<string, unknown> | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined; // not JSON
    }
  }

  /** The server's `{ message }` when the body carries one. */
  get serverMessage(): string | undefined {
    const message = this.json?.message;
    return typeof message === "string" ? message : undefined;
  }
}
