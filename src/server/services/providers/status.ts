import { failureLabels } from "#src/contract/provider-failures.ts";
import { perProvider, providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { ProviderHealth } from "#src/contract/status.ts";
import type { Providers } from "#src/server/services/search/run.ts";
import { classifyFailure, noKeyFailure, type ClassifiedFailure } from "./failure.ts";
import { shutdownMessage, shutdownOf } from "./shutdown.ts";
import type { ModelFacts, ProviderAdapter } from "./types.ts";

/** A check that has not answered by then counts as the provider unreachable. */
const CHECK_TIMEOUT_MS = 15_000;

export type ProviderStatus = {
  /** What the last check found, per provider: read by /api/status and the page, never waiting for a check. */
  current(): Record<ProviderId, ProviderHealth>;
  /** Checks every provider now (one run at a time: a call during a run waits for that run). */
  checkNow(): Promise<void>;
  /** The first check in the background, then one every `intervalMs` (none when 0). */
  start(): void;
  stop(): void;
};

/**
 * The Connection Status that tells the truth (ADR 040): each connected provider's model, and the
 * model that reads its answers, retrieved with its key, the cheapest call each API offers; the
 * answer is kept until the next check. Its failures are worded by classifyFailure, as a search's
 * error card words them.
 */
export function createProviderStatus({
  providers,
  configured,
  intervalMs,
  clock = () => new Date(),
}: {
  providers: Providers;
  /** Each provider's model as configured, named for one that is not connected. */
  configured: Record<ProviderId, { model: string }>;
  intervalMs: number;
  clock?: () => Date;
}): ProviderStatus {
  const health = perProvider((id): ProviderHealth => {
    const adapter = providers[id];
    return adapter
      ? { state: "checking", label: "Checking…", message: `Checking ${adapter.model} with its key.`, ...models(adapter) }
      : { state: "failing", ...labelled(noKeyFailure(id)), model: configured[id].model };
  });
  let running: Promise<void> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  const checkNow = (): Promise<void> => {
    running ??= Promise.all(
      providerIds.map(async (id) => {
        const adapter = providers[id];
        if (adapter) health[id] = { ...(await check(adapter, clock)), checkedAt: clock().toISOString() };
      }),
    ).then(
      () => {
        running = undefined;
      },
      (error: unknown) => {
        running = undefined;
        throw error;
      },
    );
    return running;
  };

  return {
    current: () => ({ ...health }),
    checkNow,
    start() {
      // Never on a page's way: the page reads what the last check found.
      void checkNow().catch((error: unknown) => console.error("Provider check failed:", error));
      if (intervalMs > 0 && !timer) {
        timer = setInterval(() => void checkNow().catch((error: unknown) => console.error("Provider check failed:", error)), intervalMs);
        timer.unref?.();
      }
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * One provider: its search model first (nothing works without it), then its reading model. A model
 * that answers but shuts down within 30 days turns it amber (`degraded`), saying so; one past its
 * shutdown date that still answers is failing all the same (ADR 061).
 */
async function check(adapter: ProviderAdapter, clock: () => Date): Promise<Omit<ProviderHealth, "checkedAt">> {
  const base = models(adapter);
  const search = await attempt(adapter, "search");
  if (!search.ok) return { ...base, state: "failing", ...labelled(search.failure) };
  const reader = adapter.extractor;
  const reading = reader ? await attempt(reader, "extraction") : undefined;
  const shutdowns = [
    shutdownOf(adapter.id, "search", adapter.model, search.facts, clock()),
    // The same model reading its own answers is named once, as the search model.
    reader && reading?.ok && !(reader.id === adapter.id && reader.model === adapter.model)
      ? shutdownOf(reader.id, "extraction", reader.model, reading.facts, clock())
      : undefined,
  ].filter((s) => s !== undefined);
  const first = shutdowns[0];
  const notice = first ? { shutdowns, message: shutdownMessage(first.role === "search" ? adapter.id : (reader?.id ?? adapter.id), first) } : undefined;
  if (notice && first?.role === "search" && first.when === "past")
    return { ...base, state: "failing", failure: "model_not_found", label: "Model Shut Down", ...notice };
  const { name } = providerCatalogue[adapter.id];
  const { env } = providerConfig[adapter.id];
  const label = adapter.mode === "simulated" ? "Simulated" : "Connected";
  const answers =
    adapter.mode === "simulated"
      ? `${env.apiKey} is not set: answers come from a local simulator and are labelled Simulated.`
      : `${name} answers with live web search (${adapter.model}).`;
  if (reading && !reading.ok)
    return {
      ...base,
      state: "degraded",
      failure: reading.failure.failure,
      label,
      message: `${answers} But the model that reads the answers failed: ${reading.failure.message} Until then, answers are read from their text.`,
      ...(notice ? { shutdowns: notice.shutdowns } : {}),
    };
  // The shutdown ahead is what the operator must act on: it is the whole message.
  if (notice) return { ...base, state: "degraded", label: "Shuts Down Soon", ...notice };
  return { ...base, state: "connected", label, message: answers };
}

async function attempt(
  adapter: ProviderAdapter,
  role: "search" | "extraction",
): Promise<{ ok: true; facts: ModelFacts } | { ok: false; failure: ClassifiedFailure }> {
  try {
    return { ok: true, facts: await adapter.check(AbortSignal.timeout(CHECK_TIMEOUT_MS)) };
  } catch (error) {
    return { ok: false, failure: classifyFailure(error, { provider: adapter.id, role, model: adapter.model }) };
  }
}

/** A failure with the label every client shows for it. */
function labelled({ failure, message }: ClassifiedFailure): Pick<ProviderHealth, "failure" | "label" | "message"> {
  return { failure, label: failureLabels[failure], message };
}

function models(adapter: ProviderAdapter): Pick<ProviderHealth, "model" | "extraction"> {
  const reader = adapter.extractor;
  return { model: adapter.model, ...(reader ? { extraction: { provider: reader.id, model: reader.model } } : {}) };
}
