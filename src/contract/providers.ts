/*
 * The provider catalogue: every fact about a provider that is not code, written once: how people
 * see it here, and in provider-config.ts how the server reaches it (its variables, default models,
 * finish signals), kept apart so the browser's first load carries only the first (ADR 006).
 * Adapters (src/server/services/providers) and simulators (dev/simulators) register against these
 * ids; aggregation, storage, routes, the web and exports iterate over them. Plain data without
 * schemas, so the first page can read it without loading valibot.
 *
 * Adding a provider: a row here and in provider-config.ts, its adapter, its simulator (ADR 008).
 */

export type ProviderInfo = {
  /** How the dashboard names it (spec §2: "ChatGPT / OpenAI"). */
  name: string;
  /** The assistant people know: card titles ("ChatGPT Results"), badges. */
  model: string;
  /** Who makes it, under the card title. */
  company: string;
  /** Its column in comparison tables and exports. */
  column: string;
};

export const providerCatalogue = {
  openai: {
    name: "ChatGPT / OpenAI",
    model: "ChatGPT",
    company: "OpenAI",
    column: "OpenAI",
  },
  anthropic: {
    name: "Claude / Anthropic",
    model: "Claude",
    company: "Anthropic",
    column: "Anthropic",
  },
  gemini: {
    name: "Gemini / Google",
    model: "Gemini",
    company: "Google",
    column: "Gemini",
  },
  perplexity: {
    name: "Perplexity",
    model: "Perplexity",
    company: "Perplexity",
    column: "Perplexity",
  },
} as const satisfies Record<string, ProviderInfo>;

export type ProviderId = keyof typeof providerCatalogue;

/** The providers in display order (the catalogue's order). */
export const providerIds = Object.keys(providerCatalogue) as ProviderId[];

export function providerInfo(id: ProviderId): ProviderInfo {
  return providerCatalogue[id];
}

/** One value per provider, in catalogue order. */
export function perProvider<T>(value: (id: ProviderId) => T): Record<ProviderId, T> {
  return Object.fromEntries(providerIds.map((id) => [id, value(id)])) as Record<ProviderId, T>;
}

/** "ChatGPT", "ChatGPT and Claude", "ChatGPT, Claude, Gemini and Perplexity". */
export function listModels(ids: readonly ProviderId[]): string {
  const names = ids.map((id) => providerCatalogue[id].model);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
