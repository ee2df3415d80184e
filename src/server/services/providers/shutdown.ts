import { announcedShutdown, SHUTDOWN_WARNING_DAYS, type ModelShutdown } from "#src/contract/model-shutdowns.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import type { ModelFacts } from "./types.ts";

const DAY_MS = 86_400_000;

/**
 * A model's shutdown as the status reports it (ADR 061), or undefined while it is more than
 * SHUTDOWN_WARNING_DAYS away or unknown. The date its API gave wins over the announced table; the
 * table still names the replacement, which no API gives.
 */
export function shutdownOf(provider: ProviderId, role: ModelShutdown["role"], model: string, facts: ModelFacts, today: Date): ModelShutdown | undefined {
  const announced = announcedShutdown(provider, model);
  const date = facts.shutdownDate ?? announced?.date;
  if (!date) return undefined;
  // Whole UTC days: the provider's date names a day, not an instant.
  const daysLeft = Math.round((Date.parse(date) - Date.parse(today.toISOString().slice(0, 10))) / DAY_MS);
  if (daysLeft > SHUTDOWN_WARNING_DAYS) return undefined;
  return {
    role,
    model,
    date,
    ...(announced?.replacement ? { replacement: announced.replacement } : {}),
    source: facts.shutdownDate ? "api" : "announced",
    when: daysLeft > 0 ? "soon" : "past",
  };
}

/** "gpt-5-mini shuts down on 11 Dec 2026: set OPENAI_MODEL to gpt-6.1-terra." (or "was shut down on", once past). */
export function shutdownMessage(provider: ProviderId, shutdown: ModelShutdown): string {
  const { env } = providerConfig[provider];
  const variable = shutdown.role === "search" ? env.model : env.extractionModel;
  const verb = shutdown.when === "soon" ? "shuts down on" : "was shut down on";
  return `${shutdown.model} ${verb} ${dayText(shutdown.date)}: set ${variable} to ${shutdown.replacement ?? "a current model"}.`;
}

/** 2026-12-11 → "11 Dec 2026", the same in every locale and time zone. */
function dayText(date: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${day} ${months[month - 1]} ${year}`;
}
