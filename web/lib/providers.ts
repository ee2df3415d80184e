import type { ProviderId } from "#src/contract/constants.ts";

/** How the dashboard names each provider (spec §2: "ChatGPT / OpenAI", ...). */
export const providerNames: Record<ProviderId, string> = { openai: "ChatGPT / OpenAI", anthropic: "Claude / Anthropic", gemini: "Gemini / Google" };
