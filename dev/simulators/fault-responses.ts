/** The responses of the faults that are HTTP-level failures, in the provider's own format and words. */
import type { Fault } from "./faults.ts";
import type { ProviderHandler } from "./http.ts";

/** The response for a fault that is an HTTP-level failure (`model`: the one the request names), or undefined for the others. */
export function faultResponse(handler: ProviderHandler, fault: Fault, model: string): Response | undefined {
  switch (fault.kind) {
    case "auth_refused":
    case "model_not_found":
    case "quota_exhausted":
      return handler.accountFailure(fault.kind, model);
    case "rate_limit": {
      const seconds = fault.retryAfterSeconds ?? 1;
      return handler.error("rate_limit", handler.faultMessages.rate_limit, { retryAfterSeconds: seconds });
    }
    case "server_error":
    case "overloaded":
      return handler.error(fault.kind, handler.faultMessages[fault.kind]);
    case "malformed_json":
      return new Response(handler.truncatedBody(), { status: 200, headers: { "content-type": "application/json" } });
    case "connection_reset":
    case "unreachable":
      return connectionReset();
    default:
      return undefined;
  }
}

/**
 * A streamed body that errors before its first byte: Bun then closes the socket without writing
 * a status line, so the client's fetch rejects (ECONNRESET) instead of seeing a 200.
 */
function connectionReset(): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await Bun.sleep(1);
      controller.error();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}
