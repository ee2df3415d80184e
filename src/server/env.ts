import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import { DEFAULT_PRICES, PriceTable } from "#src/contract/prices.ts";
import { perProvider, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { GOOGLE_REDIRECT_ORIGINS } from "#src/server/services/providers/redirects.ts";
import { defaultFreeTierPolicy, type FreeTierPolicy } from "#src/server/services/quota/subjects.ts";
import { loadOrCreateSecret, SESSION_SECRET_MIN_LENGTH } from "#src/server/session-secret.ts";
import { EXIT, StartupError } from "#src/server/startup-errors.ts";

/** A tracker run's answers at most unless MAX_TRACKER_RUN_ANSWERS says otherwise (the seed sizes its tracker by it). */
export const DEFAULT_MAX_TRACKER_RUN_ANSWERS = 1500;

export const DEFAULT_DATA_DIR = "./data";
export const METRICS_TOKEN_MIN_LENGTH = 32;
/** Variables whose value an error never repeats: a start-up message ends up in logs. */
const SECRETS = new Set(["METRICS_TOKEN"]);

// Empty strings count as unset, so `FOO=` in a .env file behaves like no FOO at all.
const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));
const optionalUrl = v.optional(v.pipe(v.string(), v.trim(), v.url("a URL such as http://127.0.0.1:4010")));
const count = (fallback: number, max: number, min = 0) => {
  const expected = `a whole number from ${min} to ${max}`;
  return v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, expected), v.transform(Number), v.minValue(min, expected), v.maxValue(max, expected)),
    String(fallback),
  );
};
/** A duration in seconds (or `unit`), fractions allowed (tests use short ones); up to a day unless said. */
const seconds = (fallback: number, { zero = false, max = 86_400, unit = "seconds" } = {}) => {
  const expected = `a number of ${unit} ${zero ? "from 0" : "above 0"} to ${max}, such as ${fallback} or 0.5`;
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+(\.\d+)?$/, expected),
      v.transform(Number),
      v.check((n) => zero || n > 0, expected),
      v.maxValue(max, expected),
    ),
    String(fallback),
  );
};

/** An amount of US dollars, cents allowed. */
const dollars = (fallback: number) => {
  const expected = `an amount of US dollars such as ${fallback} or 2.50`;
  return v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, expected), v.transform(Number), v.maxValue(1_000_000, expected)), String(fallback));
};

/** A share, from 0 to 1. */
const fraction = (fallback: number) => {
  const expected = `a share from 0 to 1, such as ${fallback} or 0.25`;
  return v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, expected), v.transform(Number), v.maxValue(1, expected)), String(fallback));
};

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(["development", "production", "test"], "development, production or test"), "development"),
  PORT: count(3000, 65535),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), "0.0.0.0"),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^postgres(ql)?:\/\//, "a postgres:// or postgresql:// connection URL"))),
  /** How long start-up keeps trying to reach DATABASE_URL (up to 5 attempts, with backoff). */
  DATABASE_CONNECT_TIMEOUT_SECONDS: seconds(10, { max: 600 }),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), DEFAULT_DATA_DIR),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(SESSION_SECRET_MIN_LENGTH, `at least ${SESSION_SECRET_MIN_LENGTH} characters`))),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_PRICE_ID: optionalText,
  STRIPE_API_BASE: optionalUrl,
  SIMULATE_PROVIDERS: v.optional(v.picklist(["auto", "on", "off"], "auto, on or off"), "auto"),
  /** Which provider writes query variants; the first connected one in catalogue order when unset. */
  VARIANTS_PROVIDER: v.optional(v.picklist(providerIds, `one of ${providerIds.join(", ")}`)),
  /** Which provider's small model reads every provider's answers; each provider reads its own when unset (ADR 039). */
  EXTRACTION_PROVIDER: v.optional(v.picklist(providerIds, `one of ${providerIds.join(", ")}`)),
  /**
   * Reverse proxies in front of the app whose X-Forwarded-For / -Proto / -Host we believe:
   * 0 (default, also "false") trusts none; "true" is 1. The client address is the entry that many
   * hops from the right, so a client cannot choose its own by sending the header itself.
   */
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(true|false|\d)$/, "true, false or a number of proxies from 0 to 9"),
      v.transform((value) => (value === "true" ? 1 : value === "false" ? 0 : Number(value))),
    ),
    "0",
  ),
  /** Provider calls in flight at once per provider during a multi-iteration search. */
  SEARCH_CONCURRENCY: count(5, 50, 1),
  /**
   * Provider calls in flight at once per provider across all searches of this instance (ADR 022):
   * a provider's rate limit is per key, and answers that arrive together are processed together.
   */
  PROVIDER_CONCURRENCY: count(32, 1000, 1),
  /**
   * Provider calls in flight at once per provider across every instance sharing the database, for
   * trackers' runs (ADR 043): leases in PostgreSQL, freed when an instance dies.
   */
  PROVIDER_CONCURRENCY_TOTAL: count(16, 10_000, 1),
  /** Where e-mail is sent from (trackers' digests and alerts): smtp://user:pass@host:587 or smtps://…; without it the product says e-mail is not configured. */
  SMTP_URL: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^smtps?:\/\/\S+$/, "an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587")),
  ),
  /** The From of those e-mails. */
  MAIL_FROM: v.optional(v.pipe(v.string(), v.trim(), v.minLength(3)), "AI Search Comparison <no-reply@localhost>"),
  /** E-mails one account may be sent a UTC day, confirmation links included (ADR 053); past it, none until the next day. */
  MAIL_DAILY_CAP: count(10, 1000, 1),
  /**
   * The address people open this service at, which e-mails link to (confirmation and unsubscribe
   * links); required with SMTP_URL in production, https there. Elsewhere http://localhost:PORT by default.
   */
  PUBLIC_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.url("the address people open this service at, such as https://aisc.example.com"),
      v.transform((url) => url.replace(/\/+$/, "")),
    ),
  ),
  /** Tracker webhooks may post to private, loopback and link-local addresses (self-hosting, tests); refused by default. */
  WEBHOOK_ALLOW_PRIVATE: v.optional(
    v.pipe(
      v.picklist(["0", "1"], "0 or 1"),
      v.transform((value) => value === "1"),
    ),
    "0",
  ),
  /** The shortest interval a tracker's schedule may have, in minutes (ADR 043); tests set 1. */
  TRACKER_MIN_INTERVAL_MINUTES: count(60, 10_080, 1),
  /** Reads of one share link a minute, whoever reads it, counted for every instance, before 429 (ADR 048); tests set it low. */
  SHARE_READS_PER_MINUTE: count(300, 1_000_000, 1),
  /** Reads of share links a minute from one client's network, unknown links included, before 429 (ADR 048): below the link's, so one reader cannot use it all. */
  SHARE_READS_PER_CLIENT_PER_MINUTE: count(120, 1_000_000, 1),
  /** How often each provider's key and model are checked again after the check at start (ADR 040); 0: only at start. */
  PROVIDER_CHECK_MINUTES: seconds(5, { zero: true, max: 1440, unit: "minutes" }),
  /** A search's time limit (ADR 018): for 1 iteration, and for 100; searches in between get one in proportion. */
  SEARCH_DEADLINE_SECONDS: seconds(90),
  SEARCH_DEADLINE_SECONDS_AT_100: seconds(600),
  /**
   * A comment line on every event stream this often, so proxies and clients do not take a slow
   * search for a dead one. At most 25: the server itself drops a stream quiet for 30 s (Bun's idle
   * timeout, as Elysia sets it).
   */
  SSE_HEARTBEAT_SECONDS: seconds(15, { max: 25 }),
  /** On SIGTERM, how long searches in flight may run on before they are stopped and saved with what finished. */
  SHUTDOWN_GRACE_SECONDS: seconds(8, { zero: true }),
  /** Origins whose grounding redirects Gemini's citations may be resolved through (comma-separated); Google's by default. */
  GEMINI_REDIRECT_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) =>
        value
          .split(",")
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
      v.array(v.pipe(v.string(), v.url("comma-separated origins such as https://vertexaisearch.cloud.google.com"))),
    ),
    GOOGLE_REDIRECT_ORIGINS.join(","),
  ),
  /**
   * Turns on GET /metrics (Prometheus text format), read with `Authorization: Bearer <token>`; without
   * it /metrics does not exist. At least 32 characters: it is the only thing between the metrics and anyone.
   */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.trim(), v.minLength(METRICS_TOKEN_MIN_LENGTH, `a secret of at least ${METRICS_TOKEN_MIN_LENGTH} characters`))),
  /** A JSON price table replacing the built-in one (src/contract/prices.ts, ADR 041). */
  PRICES_FILE: optionalText,
  /** What one account's searches may spend a day (UTC), in USD, before a search is refused or stopped (ADR 041). */
  ACCOUNT_DAILY_SPEND_USD: dollars(20),
  /** What every search of this deployment together may spend a day (UTC), in USD. */
  DAILY_SPEND_USD: dollars(200),
  /** The share of DAILY_SPEND_USD that trackers' runs together may use: the rest is kept for searches people run (ADR 052). */
  TRACKER_SPEND_SHARE: fraction(0.5),
  /**
   * A model without a price in the table: charged against the limits and budgets at the table's
   * highest rates (`charge-ceiling`, its cost still shown as unknown), or searches and runs on it
   * refused until it has one (`refuse`) (ADR 052).
   */
  UNPRICED_MODELS: v.optional(v.picklist(["charge-ceiling", "refuse"], "charge-ceiling or refuse"), "charge-ceiling"),
  /** Trackers one account may have (ADR 052). */
  MAX_TRACKERS_PER_ACCOUNT: count(20, 100_000),
  /** Answers one tracker run may ask for: questions × providers × iterations (ADR 052). */
  MAX_TRACKER_RUN_ANSWERS: count(DEFAULT_MAX_TRACKER_RUN_ANSWERS, 15_000, 1),
  /** Run now, per account per UTC day, across its trackers (ADR 052). */
  TRACKER_MANUAL_RUNS_PER_DAY: count(30, 100_000),
  /** Free searches a day per network, shared by anonymous visitors and accounts on their first day (ADR 015). */
  FREE_NETWORK_DAILY_SEARCHES: count(defaultFreeTierPolicy.networkSearches, 1_000_000),
  /** Free searches a day per network, shared by free accounts older than a day. */
  FREE_NETWORK_MEMBER_SEARCHES: count(defaultFreeTierPolicy.memberSearches, 1_000_000),
  /** New accounts a day per network. */
  FREE_NETWORK_DAILY_REGISTRATIONS: count(defaultFreeTierPolicy.registrations, 1_000_000),
  /** Attempts to register per network in 10 minutes, taken usernames and successes alike (ADR 026). */
  FREE_NETWORK_REGISTRATION_ATTEMPTS: count(defaultFreeTierPolicy.registrationAttempts, 1_000_000, 1),
});

/** Each provider's variables, named in the catalogue: key (and its stand-ins), base URL, model, extraction model. */
const ProviderEnvSchema = v.object(
  Object.fromEntries(
    providerIds.flatMap((id) => {
      const { env } = providerConfig[id];
      return [
        ...[env.apiKey, ...env.apiKeyAliases].map((name) => [name, optionalText]),
        [env.baseUrl, optionalUrl],
        [env.model, optionalText],
        [env.extractionModel, optionalText],
      ];
    }),
  ) as Record<string, typeof optionalText>,
);

/** A provider's configuration: no key means it runs on its simulator or not at all (services/providers/mode.ts). */
export type ProviderEnv = { apiKey?: string; baseUrl?: string; model: string; extractionModel: string };

type RawEnv = v.InferOutput<typeof EnvSchema>;
/** The environment as parsed: SESSION_SECRET may be missing outside production (`loadEnv` supplies it). */
export type ParsedEnv = RawEnv & { providers: Record<ProviderId, ProviderEnv>; freeTier: FreeTierPolicy };
/** What the app runs with: a session secret always, and the price table (PRICES_FILE's, or the built-in one). */
export type Env = ParsedEnv & { SESSION_SECRET: string; prices: PriceTable };

export class EnvError extends StartupError {
  override name = "EnvError";
  constructor(message: string) {
    super(message, EXIT.config);
  }
}

/**
 * The environment the app runs with: `parseEnv`, then the session secret: SESSION_SECRET, or
 * outside production the one kept in DATA_DIR, generated there at the first start so that
 * sessions survive restarts (session-secret.ts). The one step of configuration that touches the disk.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const env = parseEnv(source);
  return { ...env, SESSION_SECRET: env.SESSION_SECRET ?? loadOrCreateSecret(env.DATA_DIR), prices: loadPrices(env.PRICES_FILE) };
}

/** The price table: PRICES_FILE's rows, or the built-in ones. A file that is missing or wrong stops the start with one line. */
export function loadPrices(file: string | undefined): PriceTable {
  if (!file) return DEFAULT_PRICES;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new EnvError(`Invalid environment variable PRICES_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EnvError(`Invalid environment variable PRICES_FILE: ${file} is not JSON`);
  }
  const result = v.safeParse(PriceTable, json);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const where = issue.path?.map((p) => String(p.key)).join(".") ?? "the file";
  throw new EnvError(`Invalid environment variable PRICES_FILE: ${file} at ${where}: expected ${issue.expected ?? issue.message}, got ${issue.received}`);
}

/**
 * Parses the environment, and nothing else: no file is read or written. Throws EnvError with a
 * one-line message naming the first bad variable and what it expects.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): ParsedEnv {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const env = parseOrThrow(EnvSchema, cleaned);
  const raw = parseOrThrow(ProviderEnvSchema, cleaned);
  if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
    throw new EnvError("Invalid environment variable SESSION_SECRET: expected a secret of at least 32 characters (required when NODE_ENV=production)");
  }
  // Every e-mail carries links back here (confirm, unsubscribe): in production they must reach this service, over https.
  if (env.NODE_ENV === "production" && env.SMTP_URL && !env.PUBLIC_URL?.startsWith("https://")) {
    throw new EnvError(
      `Invalid environment variable PUBLIC_URL: expected the https address people open this service at, such as https://aisc.example.com (required with SMTP_URL when NODE_ENV=production: every e-mail links back to it), got ${JSON.stringify(env.PUBLIC_URL ?? "")}`,
    );
  }
  const providers = perProvider((id): ProviderEnv => {
    const names = providerConfig[id].env;
    const apiKey = [names.apiKey, ...names.apiKeyAliases].map((name) => raw[name]).find(Boolean);
    const baseUrl = raw[names.baseUrl];
    return {
      ...(apiKey ? { apiKey } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      model: raw[names.model] ?? providerConfig[id].defaultModel,
      extractionModel: raw[names.extractionModel] ?? providerConfig[id].defaultExtractionModel,
    };
  });
  return {
    ...env,
    DATA_DIR: resolve(env.DATA_DIR),
    providers,
    freeTier: {
      networkSearches: env.FREE_NETWORK_DAILY_SEARCHES,
      memberSearches: env.FREE_NETWORK_MEMBER_SEARCHES,
      registrations: env.FREE_NETWORK_DAILY_REGISTRATIONS,
      registrationAttempts: env.FREE_NETWORK_REGISTRATION_ATTEMPTS,
    },
  };
}

function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const name = issue.path?.map((p) => String(p.key)).join(".") ?? "environment";
  const got = SECRETS.has(name) ? `${String(issue.input).length} characters` : JSON.stringify(issue.input);
  throw new EnvError(`Invalid environment variable ${name}: expected ${issue.message}, got ${got}`);
}
