import type { Db } from "#db/client.ts";
import { utcDay } from "#src/contract/quota.ts";
import { DomainError } from "../errors.ts";
import { defaultFreeTierPolicy, ipHashKey, networkKey, type FreeTierPolicy, type Subject } from "./subjects.ts";
import { createUsageCounters } from "./usage.ts";

export const TOO_MANY_REGISTRATIONS = "Too many new accounts from this network today. Please try again tomorrow.";

export type RegistrationGateDeps = { db: Db; secret: string; policy?: FreeTierPolicy; clock?: () => Date };

/**
 * New accounts per network per UTC day (ADR 015): each account would bring its own 5 free
 * searches, so minting them is bounded where they come from. Counted in `daily_usage` like the
 * searches, so every instance shares the count.
 */
export function createRegistrationGate({ db, secret, policy = defaultFreeTierPolicy, clock = () => new Date() }: RegistrationGateDeps) {
  const counters = createUsageCounters(db);
  const ipKey = ipHashKey(secret);

  return {
    /**
     * Runs `register` if the network has a registration left today, and counts it only if it
     * succeeds (a taken username costs nothing). Throws TOO_MANY_ATTEMPTS (429, until the next
     * UTC midnight) when the day's are used.
     */
    async admit<T>(ip: string, register: () => Promise<T>): Promise<T> {
      const now = clock();
      const day = utcDay(now);
      const subject: Subject = { kind: "ip", key: networkKey(ipKey, "registrations", day, ip), limit: policy.registrations };
      if ((await counters.reserve([subject], day)) === null) {
        throw new DomainError("TOO_MANY_ATTEMPTS", TOO_MANY_REGISTRATIONS, { retryAfterS: secondsToNextUtcDay(now) });
      }
      try {
        return await register();
      } catch (error) {
        await counters.release([subject], day);
        throw error;
      }
    },
  };
}

export type RegistrationGate = ReturnType<typeof createRegistrationGate>;

function secondsToNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
