import Stripe from "stripe";
import type { BillingMode } from "#src/contract/billing.ts";
import type { Env } from "#src/server/env.ts";

/** What billing runs with: its mode, and the Stripe settings of that mode. */
export type BillingConfig = {
  mode: BillingMode;
  /** No real card can be charged: the simulator, or Stripe test keys. */
  testMode: boolean;
  /** The variables missing when billing is off. */
  missing: string[];
  secretKey?: string;
  publishableKey?: string;
  webhookSecret?: string;
  priceId?: string;
  /** Stripe's API origin when it is not api.stripe.com (STRIPE_API_BASE, or the simulator). */
  apiBase?: string;
  /** Where the browser loads Stripe.js from when it is not js.stripe.com. */
  stripeJsUrl?: string;
};

/** A running Stripe simulator's settings (dev/simulators/stripe.ts). */
export type StripeSimulatorSettings = { apiBase: string; secretKey: string; publishableKey: string; webhookSecret: string; priceId: string };

/** The path under which the app serves the simulator's Stripe.js stand-in and the calls it makes (dev/stripe-relay.ts). */
export const STRIPE_SIM_PATH = "/stripe-sim";

const REQUIRED = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_PRICE_ID", "STRIPE_WEBHOOK_SECRET"] as const;

/**
 * Like the providers: with a secret key, Stripe (wherever STRIPE_API_BASE points); without one
 * outside production, the simulator; in production without keys, off (Pro is not offered).
 * Live mode needs all four variables, or it is off and says which are missing.
 */
export function billingMode(env: Pick<Env, "NODE_ENV" | (typeof REQUIRED)[number]>): BillingMode {
  if (env.STRIPE_SECRET_KEY) return REQUIRED.every((name) => env[name]) ? "live" : "off";
  return env.NODE_ENV === "production" ? "off" : "simulated";
}

export function billingConfig(env: Env, simulator?: StripeSimulatorSettings): BillingConfig {
  const mode = billingMode(env);
  if (mode === "simulated") {
    if (!simulator) throw new Error("billing is simulated but no Stripe simulator is running");
    return { mode, testMode: true, missing: [], ...simulator, stripeJsUrl: `${STRIPE_SIM_PATH}/js/v3.js` };
  }
  if (mode === "off") return { mode, testMode: false, missing: REQUIRED.filter((name) => !env[name]) };
  return {
    mode,
    testMode: env.STRIPE_SECRET_KEY?.startsWith("sk_test_") ?? false,
    missing: [],
    secretKey: env.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    priceId: env.STRIPE_PRICE_ID,
    apiBase: env.STRIPE_API_BASE,
  };
}

/** The official SDK, pointed at Stripe or at STRIPE_API_BASE (the SDK's host, port and protocol). */
export function createStripeClient(config: BillingConfig): Stripe | null {
  if (config.mode === "off" || !config.secretKey) return null;
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    ...(base
      ? { host: base.hostname, port: Number(base.port) || (base.protocol === "https:" ? 443 : 80), protocol: base.protocol === "https:" ? "https" : "http" }
      : {}),
    appInfo: { name: "ai-search-comparison" },
  });
}
