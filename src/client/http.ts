import * as v from "valibot";
import { ApiError } from "./errors.ts";

export { ApiError } from "./errors.ts";

export type HttpOptions = {
  /** Absolute origin for the CLI and tests; empty for same-origin calls from the browser. */
  baseUrl?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
};

export type Http = <S extends v.GenericSchema>(method: string, path: string, schema: S, body?: unknown) => Promise<v.InferOutput<S>>;

/** Every call sends credentials; a JSON content type only when there is a body (spec §7). */
export function createHttp(options: HttpOptions = {}): Http {
  const doFetch = options.fetch ?? fetch;
  return async (method, path, schema, body) => {
    const response = await doFetch(`${options.baseUrl ?? ""}${path}`, {
      method,
      credentials: "include",
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, text, response.statusText);
    return v.parse(schema, text ? JSON.parse(text) : undefined);
  };
}
