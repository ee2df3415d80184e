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

  /** The server's `{ message }` when the body carries one, else the spec's status-prefixed text. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === "object" && "message" in parsed && typeof parsed.message === "string") return parsed.message;
    } catch {
      // not JSON: no server message
    }
    return undefined;
  }
}
