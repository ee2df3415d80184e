import { join } from "node:path";

/**
 * The Stripe.js stand-in (./client.ts) bundled into one browser script. Called as a macro by
 * ../stripe-js.ts, so it runs when that module is transpiled (`bun`) or compiled (`bun build
 * --compile`): the single binary carries the script, not its TypeScript. Through the CLI, as
 * `Bun.build` cannot run inside the bundler that runs a macro.
 */
export function bundleStripeJs(): string {
  const build = Bun.spawnSync([process.execPath, "build", join(import.meta.dir, "client.ts"), "--target=browser", "--format=iife"], { stderr: "pipe" });
  if (!build.success) throw new Error(`Cannot bundle the Stripe.js stand-in: ${build.stderr.toString()}`);
  return build.stdout.toString();
}
