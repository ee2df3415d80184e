import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SimulatorStateStore } from "#dev/simulators/stripe.ts";
import { writeFileAtomic } from "#src/server/session-secret.ts";
import { EXIT, StartupError } from "#src/server/startup-errors.ts";

/**
 * DATA_DIR/stripe-simulator.json: simulated billing's customers, subscriptions and clock, kept
 * beside the database that names them, so that a restart finds at Stripe what the database
 * remembers (ADR 027). Owner-only (0600 in a 0700 folder): it is billing data, test cards included.
 */
export function stripeSimulatorState(dataDir: string): SimulatorStateStore {
  const file = join(dataDir, "stripe-simulator.json");
  return {
    where: file,
    load() {
      try {
        return readFileSync(file, "utf8");
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") return undefined;
        throw new StartupError(
          `Cannot read the Stripe simulator's state ${file} (${code ?? (error as Error).message}). Fix: make it readable by the app's user, or remove it (simulated billing then starts with no customers).`,
          EXIT.dataDir,
          { cause: error },
        );
      }
    },
    save(document) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      writeFileAtomic(file, document, 0o600);
    },
  };
}
