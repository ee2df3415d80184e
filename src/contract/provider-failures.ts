/*
 * Plain data, kept apart from the catalogue: only a failing provider's card and the server need
 * these words, so the first page does not carry them (ADR 006).
 */

/**
 * Why a provider cannot answer (ADR 040): its key is missing or refused, its model is gone, its
 * account is out of credit or quota, it is rate-limiting us now, it cannot be reached, or it
 * answered with another error. The same words on the Connection Status, `aisc status`, MCP and a
 * search's error card. Each with its short label (a badge, a table cell).
 */
export const failureLabels = {
  no_key: "No Key",
  key_refused: "Key Refused",
  model_not_found: "Model Not Found",
  quota_exhausted: "Out of Credit",
  rate_limited: "Rate-Limited",
  unreachable: "Unreachable",
  provider_error: "Provider Error",
} as const;
export type ProviderFailure = keyof typeof failureLabels;
