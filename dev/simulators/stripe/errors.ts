/**
 * Stripe's error body, `{"error":{type, code, message, param, decline_code, doc_url}}`, and the
 * errors the simulator raises, with the status each goes with (400 bad request, 401 key, 402 card,
 * 404 unknown id). Messages are Stripe's own wording where we know it.
 */

export type StripeErrorType = "invalid_request_error" | "card_error" | "idempotency_error" | "api_error";

export type StripeErrorBody = {
  type: StripeErrorType;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  /** Card errors carry the PaymentIntent (and the PaymentMethod) as they stand after the attempt. */
  payment_intent?: unknown;
  payment_method?: unknown;
};

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

function coded(status: number, type: StripeErrorType, code: string, message: string, param?: string): StripeApiError {
  return new StripeApiError(status, { type, code, message, ...(param ? { param } : {}), doc_url: docUrl(code) });
}

export const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll("_", "-")}`;

/** 404 for an id we do not know: "No such subscription: 'sub_x'" (`kind` as Stripe names the object). */
export const noSuch = (kind: string, id: string, param = "id") => coded(404, "invalid_request_error", "resource_missing", `No such ${kind}: '${id}'`, param);

export const parameterMissing = (param: string) => coded(400, "invalid_request_error", "parameter_missing", `Missing required param: ${param}.`, param);

export const parameterEmpty = (param: string) =>
  coded(
    400,
    "invalid_request_error",
    "parameter_invalid_empty",
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
    param,
  );

export const parameterInvalidInteger = (param: string, value: string) =>
  coded(400, "invalid_request_error", "parameter_invalid_integer", `Invalid integer: ${value}`, param);

export const parameterInvalidString = (param: string) =>
  coded(400, "invalid_request_error", "parameter_invalid_string_blank", `Invalid string: ${param} must be a string.`, param);

/** A 400 without a code (Stripe's enum, boolean and state errors have none), or with the one given. */
export function invalidRequest(message: string, options: { param?: string; code?: string; status?: number } = {}): StripeApiError {
  if (options.code) return coded(options.status ?? 400, "invalid_request_error", options.code, message, options.param);
  return new StripeApiError(options.status ?? 400, { type: "invalid_request_error", message, ...(options.param ? { param: options.param } : {}) });
}

export const cannotExpand = (property: string) => invalidRequest(`This property cannot be expanded (${property}).`);

export type CardErrorSpec = { code: string; message: string; decline_code?: string; param?: string };

export function cardError(spec: CardErrorSpec, attached: { payment_intent?: unknown; payment_method?: unknown } = {}): StripeApiError {
  return new StripeApiError(402, { type: "card_error", ...spec, doc_url: docUrl(spec.code), ...attached });
}

export function errorJson(error: StripeApiError): { error: StripeErrorBody } {
  return { error: error.body };
}
