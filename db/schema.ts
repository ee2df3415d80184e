// Database schema for the whole product (drizzle pg-core). Works unchanged on
// PGlite (local / tests) and real PostgreSQL. After changing it, run
// `bunx drizzle-kit generate --name <what>` and commit the generated files in
// db/migrations/ as they are.
import { relations, sql } from "drizzle-orm";
import type { WorkspaceRole } from "#src/contract/workspaces.ts";
import {
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** timestamptz read/written as a JS Date. */
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => tstz("created_at").notNull().defaultNow();
const updatedAt = () =>
  tstz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ---------------------------------------------------------------------------
// users
// ---------------------------------------------------------------------------

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    /** Not unique: nothing proves an address, so one may not keep another account from using it (ADR 026). */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    profileImageUrl: text("profile_image_url"),
    /** Bumped on logout (and password change) to revoke every issued session. */
    tokenVersion: integer("token_version").notNull().default(0),
    /** The user's Stripe customer (cus_...), created once, on their first upgrade. */
    stripeCustomerId: text("stripe_customer_id").unique("users_stripe_customer_id_key"),
    /** The brand lens: their brand and competitors (contract BrandLensSettings), or null. */
    brandLens: jsonb("brand_lens").$type<unknown>(),
    /** E-mails they asked for: the weekly digest of their trackers, and a run's alerts. Off until turned on, and sent only once the address is proved (ADR 053). */
    digestEmails: boolean("digest_emails").notNull().default(false),
    alertEmails: boolean("alert_emails").notNull().default(false),
    /**
     * The address its owner proved by following the confirmation link sent to it, and when; e-mail
     * is sent only while it is still the account's address (a changed address is proved again).
     */
    emailVerified: text("email_verified"),
    emailVerifiedAt: tstz("email_verified_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Case-insensitive uniqueness: look users up with lower(...) = lower($1).
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
  ],
);

// ---------------------------------------------------------------------------
// workspaces (ADR 071): trackers, share links and saved variants belong to one; people are its members
// ---------------------------------------------------------------------------

export const workspaces = pgTable("workspaces", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** Whose personal workspace this is (every account has exactly one, which cannot be deleted); null for one made to share. */
  personalUserId: uuid("personal_user_id")
    .unique("workspaces_personal_user_id_key")
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const workspaceMembers = pgTable(
  "workspace_members",
  {
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<WorkspaceRole>().notNull(),
    joinedAt: tstz("joined_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index("workspace_members_user_idx").on(t.userId),
    check("workspace_members_role_check", sql`${t.role} in ('viewer', 'editor', 'admin', 'owner')`),
  ],
);

/** A link that makes its holder a member: single use, for 7 days, revocable; only its token's hash is kept. */
export const workspaceInvitations = pgTable(
  "workspace_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique("workspace_invitations_token_hash_key"),
    role: text("role").$type<WorkspaceRole>().notNull(),
    /** The only address whose account may accept it; null: anyone holding the link. */
    email: text("email"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    usedBy: uuid("used_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [index("workspace_invitations_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** Who did what in a workspace, newest last by id; the actor's name is kept as it was, for after they leave. */
export const workspaceAudit = pgTable(
  "workspace_audit",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    at: tstz("at").notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    /** "session" (a browser) or "token" (an API token, named by its id and first characters). */
    via: text("via").$type<"session" | "token">().notNull(),
    tokenId: uuid("token_id"),
    tokenPrefix: text("token_prefix"),
    action: text("action").notNull(),
    /** What it was done to, in words: a tracker's name, a member's username, a link's title. */
    target: text("target").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("workspace_audit_workspace_idx").on(t.workspaceId, t.id)],
);

// ---------------------------------------------------------------------------
// searches (history + running/finished state of every search)
// ---------------------------------------------------------------------------

export const searchStatuses = ["running", "completed", "failed", "cancelled", "interrupted"] as const;
export type SearchStatus = (typeof searchStatuses)[number];

/**
 * The `daily_usage` counters a free search was taken from, kept on its row while it runs so that
 * whoever ends it (its instance, or the sweep after that instance died) can give it back.
 */
export type UsageCharge = { day: string; subjects: Array<{ kind: UsageSubjectKind; key: string }> };

export const searches = pgTable(
  "searches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Owner when signed in; null for anonymous searches. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Anonymous visitor id (cookie) when not signed in. */
    anonymousId: text("anonymous_id"),
    query: text("query").notNull(),
    /** A name its owner gave it, shown in the history instead of the query (which stays visible); null until renamed. */
    title: text("title"),
    iterations: integer("iterations").notNull(),
    /** Request options (models, etc.) as sent by the client. */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    /** The full result, once there is one. */
    result: jsonb("result").$type<unknown>(),
    totalProducts: integer("total_products").notNull().default(0),
    totalCompanies: integer("total_companies").notNull().default(0),
    totalLinks: integer("total_links").notNull().default(0),
    iterationCount: integer("iteration_count").notNull().default(0),
    status: text("status").$type<SearchStatus>().notNull().default("running"),
    error: text("error"),
    simulated: boolean("simulated").notNull().default(false),
    /** What it cost in USD (ADR 041), for the history's list; null when unknown, or saved before costs were kept. */
    costUsd: doublePrecision("cost_usd"),
    /** The app instance running it (instances.id): only a dead instance's runs are marked interrupted. */
    instanceId: uuid("instance_id"),
    /** Which searches it takes the place of (the owner's, or a batch item's own): the key a cancel names. */
    slot: text("slot"),
    /** While running, what the free quota was charged (null for Pro, and once the search has ended). */
    charge: jsonb("charge").$type<UsageCharge>(),
    /** The tracker whose run asked it, and that run; null for a search someone ran. */
    trackerId: uuid("tracker_id"),
    runId: uuid("run_id"),
    createdAt: createdAt(),
    completedAt: tstz("completed_at"),
  },
  (t) => [
    // History lists: WHERE user_id = $1 ORDER BY created_at DESC (same for anonymous).
    index("searches_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    index("searches_anonymous_created_idx").on(t.anonymousId, t.createdAt.desc().nullsFirst()),
    // Start-up: find searches left 'running' by a crashed instance.
    index("searches_status_idx").on(t.status),
  ],
);

// ---------------------------------------------------------------------------
// spend (what provider calls cost, as they finish: the daily spend limits and the profile's totals)
// ---------------------------------------------------------------------------

export const spend = pgTable(
  "spend",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The account whose search made the calls; null for anonymous searches (they count for the deployment only). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    searchId: uuid("search_id"),
    /** USD, from the answer's usage and the price table at the time. */
    usd: doublePrecision("usd").notNull(),
    /** What spent it: an interactive search (a person, the CLI) or a tracker's run; trackers get a share of the deployment's day. */
    source: text("source").$type<"search" | "tracker">().notNull().default("search"),
    at: tstz("at").notNull().defaultNow(),
  },
  (t) => [index("spend_user_at_idx").on(t.userId, t.at), index("spend_at_idx").on(t.at)],
);

/**
 * What an admitted search or tracker run may still spend: its estimate, held when it is admitted
 * (so that searches admitted together cannot all pass a limit) and given back as it ends; a hold
 * left by a process that died lapses at `expiresAt`.
 */
export const spendHolds = pgTable(
  "spend_holds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    source: text("source").$type<"search" | "tracker">().notNull(),
    usd: doublePrecision("usd").notNull(),
    at: tstz("at").notNull().defaultNow(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("spend_holds_expires_idx").on(t.expiresAt)],
);

/** E-mails sent to an account per UTC day: the daily cap on what one account can be sent. */
export const mailSends = pgTable(
  "mail_sends",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ name: "mail_sends_pkey", columns: [t.userId, t.day] })],
);

/** Counters of fixed windows shared by every instance (the share links' read limits): a key, the window's start, the count in it. */
export const rateCounters = pgTable(
  "rate_counters",
  {
    key: text("key").notNull(),
    windowStart: tstz("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ name: "rate_counters_pkey", columns: [t.key, t.windowStart] }), index("rate_counters_window_idx").on(t.windowStart)],
);

// ---------------------------------------------------------------------------
// instances (app servers sharing the database, each with a lease it renews)
// ---------------------------------------------------------------------------

export const instances = pgTable("instances", {
  id: uuid("id").primaryKey(),
  startedAt: tstz("started_at").notNull().defaultNow(),
  /** Renewed every few seconds with the database's now(); an old one means the instance is gone. */
  heartbeatAt: tstz("heartbeat_at").notNull().defaultNow(),
});

// ---------------------------------------------------------------------------
// daily_usage (free-tier quota: N searches per UTC day per subject)
// ---------------------------------------------------------------------------

export const usageSubjectKinds = ["user", "anon", "ip"] as const;
export type UsageSubjectKind = (typeof usageSubjectKinds)[number];

export const dailyUsage = pgTable(
  "daily_usage",
  {
    /** 'user' (user id), 'anon' (anonymous id) or 'ip' (salted IP hash). */
    subjectKind: text("subject_kind").$type<UsageSubjectKind>().notNull(),
    subjectKey: text("subject_key").notNull(),
    /** UTC day, as 'YYYY-MM-DD'. */
    day: date("day", { mode: "string" }).notNull(),
    count: integer("count").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: "daily_usage_pkey", columns: [t.subjectKind, t.subjectKey, t.day] }),
    check("daily_usage_subject_kind_check", sql`${t.subjectKind} in ('user', 'anon', 'ip')`),
  ],
);

// ---------------------------------------------------------------------------
// subscriptions (mirror of Stripe subscriptions, kept up to date by webhooks)
// ---------------------------------------------------------------------------

export const subscriptions = pgTable(
  "subscriptions",
  {
    /** Stripe subscription id (sub_...). */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    stripeCustomerId: text("stripe_customer_id").notNull(),
    /** Stripe status: active, trialing, past_due, canceled, incomplete, ... */
    status: text("status").notNull(),
    priceId: text("price_id"),
    /** In the currency's smallest unit (cents). */
    planAmount: integer("plan_amount"),
    planCurrency: text("plan_currency"),
    planInterval: text("plan_interval"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    cancelAt: tstz("cancel_at"),
    canceledAt: tstz("canceled_at"),
    currentPeriodEnd: tstz("current_period_end"),
    /** When this row was last read from Stripe: an older read never overwrites a newer one. */
    syncedAt: tstz("synced_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscriptions_user_status_idx").on(t.userId, t.status), index("subscriptions_customer_idx").on(t.stripeCustomerId)],
);

// ---------------------------------------------------------------------------
// stripe_events (idempotent webhook handling: insert ... on conflict do nothing)
// ---------------------------------------------------------------------------

export const stripeEvents = pgTable("stripe_events", {
  /** Stripe event id (evt_...). */
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: tstz("received_at").notNull().defaultNow(),
  payload: jsonb("payload").$type<unknown>().notNull(),
});

// ---------------------------------------------------------------------------
// variant batches (a query's variants, run as searches on the job queue; survive reloads)
// ---------------------------------------------------------------------------

export const variantBatches = pgTable(
  "variant_batches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    query: text("query").notNull(),
    iterations: integer("iterations").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("variant_batches_user_query_idx").on(t.userId, sql`lower(${t.query})`, t.createdAt)],
);

export const batchItemStatuses = ["pending", "queued", "running", "completed", "failed"] as const;
export type BatchItemStatus = (typeof batchItemStatuses)[number];

export const variantBatchItems = pgTable(
  "variant_batch_items",
  {
    batchId: uuid("batch_id")
      .notNull()
      .references(() => variantBatches.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    query: text("query").notNull(),
    reasoning: text("reasoning"),
    status: text("status").$type<BatchItemStatus>().notNull().default("pending"),
    searchId: uuid("search_id").references(() => searches.id, { onDelete: "set null" }),
    error: text("error"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: "variant_batch_items_pkey", columns: [t.batchId, t.position] })],
);

// ---------------------------------------------------------------------------
// variant sets (a query's current variants, per user: written once, kept with the person's edits)
// ---------------------------------------------------------------------------

export const variantSets = pgTable(
  "variant_sets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The workspace it belongs to (ADR 071); `user_id` is who made it. */
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The original query as first asked; one set per user and query in any letter case. */
    query: text("query").notNull(),
    /** The variants as the person kept, edited or added them (contract SavedVariant[]). */
    variants: jsonb("variants").$type<unknown>().notNull(),
    /** Which model wrote them (contract GeneratedBy); null for a set first saved as a batch (POST /api/variant-batches). */
    generatedBy: jsonb("generated_by").$type<unknown>(),
    /** The person changed the list: regenerating it asks first. */
    edited: boolean("edited").notNull().default(false),
    /** The batch the set was run as; from then on its queries are the batch's. */
    batchId: uuid("batch_id").references(() => variantBatches.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("variant_sets_user_query_key").on(t.userId, sql`lower(${t.query})`), index("variant_sets_workspace_idx").on(t.workspaceId)],
);

// ---------------------------------------------------------------------------
// trackers (questions asked on a schedule, run on pg-boss; ADR 043)
// ---------------------------------------------------------------------------

export const trackers = pgTable(
  "trackers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The workspace it belongs to (ADR 071); `user_id` is who made it. */
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    queries: jsonb("queries").$type<string[]>().notNull(),
    /** Each tagged question's tag, keyed by the question as in `queries` (ADR 068); labels only, not part of what a run asks. */
    questionTags: jsonb("question_tags").$type<Record<string, string>>().notNull().default({}),
    /** Contract BrandEntry, and a list of them. */
    brand: jsonb("brand").$type<unknown>().notNull(),
    competitors: jsonb("competitors").$type<unknown>().notNull().default([]),
    providers: text("providers").array().notNull(),
    iterations: integer("iterations").notNull(),
    /** Contract Location, or null. */
    location: jsonb("location").$type<unknown>(),
    cron: text("cron").notNull(),
    timezone: text("timezone").notNull(),
    monthlyBudgetUsd: doublePrecision("monthly_budget_usd"),
    /** Paused by its owner. */
    paused: boolean("paused").notNull().default(false),
    /** Why it is paused when its owner did not pause it (a lapsed subscription); it resumes on its own. */
    pausedReason: text("paused_reason"),
    /** Grows when the queries or providers change: a new series segment. */
    segment: integer("segment").notNull().default(1),
    /** Runs per alert window. */
    alertWindow: integer("alert_window").notNull().default(1),
    /** Where its events are posted, how, and the secret that signs them; null: none. */
    webhookUrl: text("webhook_url"),
    webhookFormat: text("webhook_format").$type<"json" | "slack">(),
    webhookSecret: text("webhook_secret"),
    /**
     * Its schedule's next occurrence, which the dispatcher runs once due (ADR 055); null while it is
     * paused. The table is the schedule: there is no other copy to fall out of step with it.
     */
    nextRunAt: tstz("next_run_at"),
    /** Its report by e-mail to recipients (tracker_report_recipients): weekly, monthly or off. */
    reportCadence: text("report_cadence").$type<"weekly" | "monthly" | "off">().notNull().default("off"),
    /** The share link (shares.id) its recipients' reports link to, made at the first send; kept when revoked, so a revoked link is not made again behind the owner's back. */
    reportShareId: uuid("report_share_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("trackers_user_idx").on(t.userId, t.createdAt),
    index("trackers_workspace_idx").on(t.workspaceId, t.createdAt),
    // The dispatcher's due scan: only scheduled trackers are in it.
    index("trackers_due_idx").on(t.nextRunAt).where(sql`${t.nextRunAt} is not null`),
  ],
);

/** Who a tracker's report is e-mailed to: each confirms once by a signed link before anything is sent, and can unsubscribe from any report. */
export const trackerReportRecipients = pgTable(
  "tracker_report_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trackerId: uuid("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text("email").notNull(),
    status: text("status").$type<"pending" | "confirmed" | "unsubscribed">().notNull().default("pending"),
    confirmedAt: tstz("confirmed_at"),
    confirmationSentAt: tstz("confirmation_sent_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("tracker_report_recipients_address_idx").on(t.trackerId, t.email)],
);

/** One row per report sent (or refused at the daily cap) to a recipient for a period: a retried send finds it and sends nothing. */
export const trackerReportSends = pgTable(
  "tracker_report_sends",
  {
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => trackerReportRecipients.id, { onDelete: "cascade" }),
    /** "2026-W50" or "2026-12". */
    period: text("period").notNull(),
    outcome: text("outcome").$type<"queued" | "capped">().notNull(),
    at: createdAt(),
  },
  (t) => [primaryKey({ name: "tracker_report_sends_pkey", columns: [t.recipientId, t.period] })],
);

export const trackerRunStatuses = ["queued", "running", "completed", "partial", "failed", "skipped"] as const;

export const trackerRuns = pgTable(
  "tracker_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trackerId: uuid("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    status: text("status").$type<(typeof trackerRunStatuses)[number]>().notNull().default("queued"),
    reason: text("reason"),
    trigger: text("trigger").$type<"schedule" | "manual">().notNull(),
    segment: integer("segment").notNull(),
    scheduledFor: tstz("scheduled_for").notNull(),
    startedAt: tstz("started_at"),
    finishedAt: tstz("finished_at"),
    /** The answers it asks for (queries × providers × iterations), fixed when it starts. */
    expected: integer("expected").notNull().default(0),
    /**
     * What it asks and counts, as the tracker stood when the run was made (contract RunDefinition):
     * queries, providers, iterations, location, brand, competitors. An edit during the run changes
     * neither what it buys nor how it is counted. Null in runs made before it was kept.
     */
    definition: jsonb("definition").$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("tracker_runs_tracker_created_idx").on(t.trackerId, t.createdAt.desc()),
    // The deployment's runs of the last day, by status, for /metrics: a range, not a scan of every run ever made.
    index("tracker_runs_created_idx").on(t.createdAt),
    // One run queued or running per tracker: Run now while one is answers 409, a tick is skipped.
    uniqueIndex("tracker_runs_one_active_key").on(t.trackerId).where(sql`${t.status} in ('queued', 'running')`),
    // One row per schedule occurrence: a tick sent twice, or retried after its row was written, adds none.
    uniqueIndex("tracker_runs_occurrence_key").on(t.trackerId, t.scheduledFor).where(sql`${t.trigger} = 'schedule'`),
  ],
);

/** A run's queries, each with the saved search it fills (one pg-boss job per query). */
export const trackerRunQueries = pgTable(
  "tracker_run_queries",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => trackerRuns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    query: text("query").notNull(),
    searchId: uuid("search_id").references(() => searches.id, { onDelete: "set null" }),
    /** Set when its job has finished (completed, or gave up). */
    finishedAt: tstz("finished_at"),
  },
  (t) => [primaryKey({ name: "tracker_run_queries_pkey", columns: [t.runId, t.position] })],
);

export const trackerCallStatuses = ["started", "done", "failed", "lost"] as const;

/**
 * The ledger of provider calls a run makes, one row per query × provider × iteration: written
 * `started` before the call, `done` (with the answer) or `failed` after it. A retried job asks
 * only for the rows not done; a `started` row whose instance died is `lost` (ADR 043).
 */
export const trackerCalls = pgTable(
  "tracker_calls",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => trackerRuns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    provider: text("provider").notNull(),
    iteration: integer("iteration").notNull(),
    status: text("status").$type<(typeof trackerCallStatuses)[number]>().notNull(),
    /** The instance making the call (instances.id). */
    instanceId: uuid("instance_id").notNull(),
    /** Times this call was started: a lost call is asked again once, never more (ADR 043). */
    attempts: integer("attempts").notNull().default(1),
    /** The answer (contract ModelResult) once done or failed. */
    result: jsonb("result").$type<unknown>(),
    costUsd: doublePrecision("cost_usd"),
    simulated: boolean("simulated").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: "tracker_calls_pkey", columns: [t.runId, t.position, t.provider, t.iteration] })],
);

/**
 * A run's counts per provider, query and subject, written when the run ends: the trend
 * reads these, never the answers. `query` is the query's text, or '' for the run over all its queries.
 */
export const trackerRollups = pgTable(
  "tracker_rollups",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => trackerRuns.id, { onDelete: "cascade" }),
    trackerId: uuid("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    /** The run's scheduled time, copied so the trend reads one table. */
    at: tstz("at").notNull(),
    query: text("query").notNull(),
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    isBrand: boolean("is_brand").notNull(),
    answers: integer("answers").notNull(),
    mentions: integer("mentions").notNull(),
    allMentions: integer("all_mentions").notNull(),
    cited: integer("cited").notNull(),
    ranked: integer("ranked").notNull(),
    positionSum: integer("position_sum").notNull(),
    positionSquares: integer("position_squares").notNull(),
    /** Share of voice with the answer as its unit (ADR 050): over the answers naming the subject, the subjects each named, summed; over every answer, the square of how many it named, summed. Null before they were counted. */
    coMentions: integer("co_mentions"),
    mentionSquares: integer("mention_squares"),
    /** The provider's identity in this run: its model version(s) and web-search tool, sorted, ", " between several. */
    modelVersion: text("model_version").notNull(),
  },
  (t) => [
    primaryKey({ name: "tracker_rollups_pkey", columns: [t.runId, t.query, t.provider, t.subject] }),
    // The trend: one tracker's rows for one query (or '' for all), in time order.
    index("tracker_rollups_trend_idx").on(t.trackerId, t.query, t.at),
  ],
);

/** A run's cited domains per provider: the sources by type and the citation gap read these. */
export const trackerSourceRollups = pgTable(
  "tracker_source_rollups",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => trackerRuns.id, { onDelete: "cascade" }),
    trackerId: uuid("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    at: tstz("at").notNull(),
    provider: text("provider").notNull(),
    domain: text("domain").notNull(),
    /** Answers citing it, and of those the ones naming the brand and the ones naming a competitor. */
    answers: integer("answers").notNull(),
    withBrand: integer("with_brand").notNull(),
    withCompetitor: integer("with_competitor").notNull(),
  },
  (t) => [
    primaryKey({ name: "tracker_source_rollups_pkey", columns: [t.runId, t.provider, t.domain] }),
    index("tracker_source_rollups_tracker_idx").on(t.trackerId, t.at),
  ],
);

export const trackerAlertKinds = ["rose", "fell", "model-changed"] as const;

/**
 * What a run's end found worth a person's attention (ADR 045): a rise or a fall that
 * passed the test, with both windows' counts, or a provider's model version that changed.
 */
export const trackerAlerts = pgTable(
  "tracker_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trackerId: uuid("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => trackerRuns.id, { onDelete: "cascade" }),
    kind: text("kind").$type<(typeof trackerAlertKinds)[number]>().notNull(),
    /** mention or citation; '' for a model change. */
    metric: text("metric").notNull(),
    provider: text("provider").notNull(),
    /** '' for a model change. */
    subject: text("subject").notNull(),
    /** '' over all the tracker's queries (and for a model change). */
    query: text("query").notNull(),
    /** Contract AlertSide, or the model version for a model change ({ modelVersion }). */
    before: jsonb("before").$type<unknown>().notNull(),
    after: jsonb("after").$type<unknown>().notNull(),
    p: doublePrecision("p"),
    q: doublePrecision("q"),
    /** The rule that decided it: 1 for ADR 045's (answers as independent), 2 for ADR 050's (counted with the runs' dispersion). */
    rule: integer("rule").notNull().default(1),
    /** Rule 2: the dispersion the test counted with ({ phi, df }), the baseline's runs and the after window's (run ids, oldest first). */
    dispersion: jsonb("dispersion").$type<unknown>(),
    baselineRuns: jsonb("baseline_runs").$type<string[]>(),
    afterRuns: jsonb("after_runs").$type<string[]>(),
    /** The run's scheduled time. */
    at: tstz("at").notNull(),
    readAt: tstz("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // A run's end decides once: a second evaluation (two instances ending it together) adds nothing.
    uniqueIndex("tracker_alerts_once_key").on(t.runId, t.kind, t.metric, t.provider, t.subject, t.query),
    index("tracker_alerts_tracker_idx").on(t.trackerId, t.at.desc()),
  ],
);

/**
 * Runs that were due and did not happen (a tick skipped, refused, or never sent): one row per
 * tracker and occurrence, whichever instance reports it and however often, so its owner is told
 * once (the bell, an e-mail, the `run.missed` webhook). Read in the bell until marked read; kept 90 days.
 */
export const trackerMissedRuns = pgTable(
  "tracker_missed_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trackerId: uuid("tracker_id")
      .notNull()
      .references(() => trackers.id, { onDelete: "cascade" }),
    dueAt: tstz("due_at").notNull(),
    reason: text("reason").notNull(),
    readAt: tstz("read_at"),
    /** When its webhook and e-mail were handed to their queues (null until then: the missed-run check sends it again). */
    toldAt: tstz("told_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("tracker_missed_runs_once_key").on(t.trackerId, t.dueAt),
    // The check's two reads by age: the last hour's rows not yet told, and the rows old enough to delete.
    index("tracker_missed_runs_created_idx").on(t.createdAt),
  ],
);

/**
 * A provider that answered 429 past its retries is left alone until `until` by every instance
 * (each re-reads this every few seconds), not only by the one that met it.
 */
export const providerPauses = pgTable("provider_pauses", {
  provider: text("provider").primaryKey(),
  until: tstz("until").notNull(),
});

/**
 * Provider calls in flight across every instance (PROVIDER_CONCURRENCY_TOTAL): a row per slot an
 * instance holds, handed from one of its calls to the next and deleted when none wants it; a dead
 * instance's rows are taken over (ADR 043, ADR 060).
 */
export const providerSlots = pgTable(
  "provider_slots",
  {
    provider: text("provider").notNull(),
    slot: integer("slot").notNull(),
    instanceId: uuid("instance_id").notNull(),
    takenAt: tstz("taken_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "provider_slots_pkey", columns: [t.provider, t.slot] })],
);

/**
 * Instances whose calls wait for a provider's slot (ADR 060), renewed every half second while they
 * wait: while others wait, a holder keeps only its share of the cap. An old row claims nothing.
 */
export const providerSlotWaits = pgTable(
  "provider_slot_waits",
  {
    provider: text("provider").notNull(),
    instanceId: uuid("instance_id").notNull(),
    at: tstz("at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "provider_slot_waits_pkey", columns: [t.provider, t.instanceId] })],
);

// ---------------------------------------------------------------------------
// api_tokens (CLI access; only a hash of the token is stored)
// ---------------------------------------------------------------------------

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The token's first characters ("aisc_Ab12"), to tell tokens apart in a list; the token itself is never kept. */
    prefix: text("prefix").notNull().default(""),
    tokenHash: text("token_hash").notNull().unique("api_tokens_token_hash_key"),
    /** What the token may do (src/contract/tokens.ts); null for a token made before scopes, which has the default set. */
    scopes: text("scopes").array(),
    lastUsedAt: tstz("last_used_at"),
    createdAt: createdAt(),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------------------
// share links (ADR 048)
// ---------------------------------------------------------------------------

export const shareKinds = ["search", "compare", "tracker"] as const;

/** A read-only link to a saved search, a comparison or a tracker; whoever holds its token may open it. */
export const shares = pgTable(
  "shares",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The workspace it belongs to (ADR 071); `user_id` is who made it. */
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** The saved search's, the comparison's original search's, or the tracker's id. */
    targetId: uuid("target_id").notNull(),
    /** The link's secret, kept as is: its owner copies the link again from their list (ADR 048). */
    token: text("token").notNull().unique("shares_token_key"),
    /** The query or the tracker's name, as when shared. */
    title: text("title").notNull(),
    /** A tracker's link: a snapshot (true) or the living report. */
    frozen: boolean("frozen").notNull().default(false),
    /** A frozen link's clock: the newest finished run's scheduled time when shared (null: none had finished). */
    frozenAt: tstz("frozen_at"),
    /** A frozen link's tracker as it was defined when shared (SharedTracker). */
    frozenTracker: jsonb("frozen_tracker"),
    /** A comparison's saved searches, pinned when shared: the variants' ids (the original is target_id). */
    searchIds: jsonb("search_ids").$type<string[]>(),
    createdAt: createdAt(),
    expiresAt: tstz("expires_at"),
    lastOpenedAt: tstz("last_opened_at"),
  },
  (t) => [index("shares_user_idx").on(t.userId, t.createdAt), index("shares_workspace_idx").on(t.workspaceId, t.createdAt)],
);

// ---------------------------------------------------------------------------
// relations (for db.query.* relational queries)
// ---------------------------------------------------------------------------

export const usersRelations = relations(users, ({ many }) => ({
  searches: many(searches),
  subscriptions: many(subscriptions),
  apiTokens: many(apiTokens),
}));

export const searchesRelations = relations(searches, ({ one }) => ({
  user: one(users, { fields: [searches.userId], references: [users.id] }),
}));

export const subscriptionsRelations = relations(subscriptions, ({ one }) => ({
  user: one(users, { fields: [subscriptions.userId], references: [users.id] }),
}));

export const apiTokensRelations = relations(apiTokens, ({ one }) => ({
  user: one(users, { fields: [apiTokens.userId], references: [users.id] }),
}));

// ---------------------------------------------------------------------------
// row types
// ---------------------------------------------------------------------------

// The ones code names; the rest are `typeof table.$inferSelect` where they are needed.
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type NewSearch = typeof searches.$inferInsert;
