import * as v from "valibot";

/** An error that carries its HTTP status; the app answers `{ message, ...extra }` with that status. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
    /** More fields for the error body, e.g. `remainingSearches` on a refused search. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Parses an input at the boundary; a bad one is a 400 naming what is wrong. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join(".");
  const message = issue.message.startsWith("Invalid ") && path ? `${path}: ${issue.message}` : issue.message;
  throw new HttpError(400, message);
}
