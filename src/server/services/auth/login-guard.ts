import { DomainError } from "../errors.ts";
import { networkOf } from "../quota/subjects.ts";
import { createThrottle, tryAgainIn } from "./throttle.ts";

/** The refusal, with the wait in words: "Too many login attempts. Please try again in 2 minutes." */
export function tooManyLogins(waitS: number): string {
  return `Too many login attempts. ${tryAgainIn(waitS)}`;
}

export type LoginGuardOptions = {
  clock?: () => Date;
  /** Wrong passwords for one username from one network before the waits start. */
  freeFailures?: number;
  /** The longest wait between guesses. */
  maxDelayMs?: number;
  /** Attempts from one network in a minute, whatever the usernames (password spraying). */
  networkLimit?: number;
  /** Failures older than this are forgotten. */
  forgetMs?: number;
  /** Entries kept at most, so made-up usernames cannot exhaust memory. */
  maxKeys?: number;
};

/**
 * Slows password guessing where it comes from (ADR 015). Wrong passwords are counted per
 * (username, network): after `freeFailures`, each further try waits twice as long as the last
 * (1 s, 2 s, 4 s … up to `maxDelayMs`), and the right password clears the count. Someone guessing
 * from elsewhere therefore cannot lock the owner out, as a per-username lock would. A network also
 * has an overall cap per minute over all usernames.
 *
 * In memory, like the throttle it uses: each guess already costs an argon2id verification, and
 * with N instances an attacker gets at most N times the attempts; a restart forgets the counts.
 */
export function createLoginGuard({
  clock = () => new Date(),
  freeFailures = 5,
  maxDelayMs = 15 * 60_000,
  networkLimit = 30,
  forgetMs = 60 * 60_000,
  maxKeys = 50_000,
}: LoginGuardOptions = {}) {
  const failures = new Map<string, { count: number; lastAt: number }>();
  const network = createThrottle({ limit: networkLimit, windowMs: 60_000, clock, maxKeys });
  const keyOf = (username: string, ip: string) => `${username.toLowerCase()}|${networkOf(ip)}`;

  function waitMs(entry: { count: number; lastAt: number }, now: number): number {
    if (entry.count < freeFailures) return 0;
    const delay = Math.min(maxDelayMs, 1000 * 2 ** (entry.count - freeFailures));
    return Math.max(0, entry.lastAt + delay - now);
  }

  return {
    /**
     * Runs `authenticate` unless this username has failed too often from this network lately or
     * the network is over its cap: then TOO_MANY_ATTEMPTS (429) with the wait in seconds. A wrong
     * password (INVALID_LOGIN) is counted; a right one clears the count.
     */
    async attempt<T>(username: string, ip: string, authenticate: () => Promise<T>): Promise<T> {
      const now = clock().getTime();
      const key = keyOf(username, ip);
      const known = failures.get(key);
      const entry = known && now - known.lastAt < forgetMs ? known : undefined;
      const wait = entry ? waitMs(entry, now) : 0;
      if (wait > 0) throw refusal(Math.ceil(wait / 1000));
      const verdict = network.attempt([networkOf(ip)]);
      if (!verdict.allowed) throw refusal(verdict.retryAfterS);
      try {
        const result = await authenticate();
        failures.delete(key);
        return result;
      } catch (error) {
        if (error instanceof DomainError && error.code === "INVALID_LOGIN") {
          // Forget stale entries first, then the oldest, so the map stays bounded.
          if (failures.size >= maxKeys) {
            for (const [k, e] of failures) if (now - e.lastAt >= forgetMs) failures.delete(k);
            for (const k of failures.keys()) {
              if (failures.size < maxKeys) break;
              failures.delete(k);
            }
          }
          failures.set(key, { count: (entry?.count ?? 0) + 1, lastAt: clock().getTime() });
        }
        throw error;
      }
    },
  };
}

function refusal(retryAfterS: number): DomainError {
  return new DomainError("TOO_MANY_ATTEMPTS", tooManyLogins(retryAfterS), { retryAfterS });
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
