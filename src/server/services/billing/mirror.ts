import { and, eq, notInArray, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "#db/client.ts";
import { subscriptions, users } from "#db/schema.ts";
import type { SubscriptionDetails } from "#src/contract/billing.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * The local copy of a Stripe subscription, read at `syncedAt`. Since API 2025-03-31 the period
 * lives on the items: the end shown is the latest item's.
 */
export function rowOf(subscription: Stripe.Subscription, userId: string, syncedAt: Date): typeof subscriptions.$inferInsert {
  const items = subscription.items.data;
  const price = items[0]?.price;
  const periodEnd = Math.max(0, ...items.map((item) => item.current_period_end ?? 0));
  return {
    id: subscription.id,
    userId,
    stripeCustomerId: typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
    status: subscription.status,
    priceId: price?.id ?? null,
    planAmount: price?.unit_amount ?? null,
    planCurrency: price?.currency ?? null,
    planInterval: price?.recurring?.interval ?? null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    cancelAt: dateOf(subscription.cancel_at),
    canceledAt: dateOf(subscription.canceled_at),
    currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
    syncedAt,
  };
}

/**
 * Writes the copy unless a newer read of the same subscription is already stored: webhooks arrive
 * out of order and twice, and two of them may be handled at once.
 */
export async function saveSubscription(db: Db, row: typeof subscriptions.$inferInsert): Promise<void> {
  const { id: _, createdAt: __, ...changes } = row;
  await db
    .insert(subscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: subscriptions.id,
      set: { ...changes, updatedAt: sql`now()` },
      setWhere: sql`${subscriptions.syncedAt} <= excluded.synced_at`,
    });
}

export async function findSubscription(db: Db, userId: string, subscriptionId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)))
    .limit(1);
  return row;
}

/**
 * Stripe no longer has this subscription (test data cleared, deleted in the Dashboard): the copy
 * is ended as Stripe would have ended it, an unpaid one expired, a paid one canceled, so it
 * grants nothing. True when the user had it.
 */
export async function endSubscription(db: Db, userId: string, subscriptionId: string, at: Date): Promise<boolean> {
  const ended = await db
    .update(subscriptions)
    .set(endedNow(at))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)))
    .returning({ id: subscriptions.id });
  return ended.length > 0;
}

/**
 * Stripe no longer has this customer: the user is unlinked from it (the next checkout makes a new
 * one) and the subscriptions it paid for are ended here too.
 */
export async function forgetCustomer(db: Db, userId: string, customer: string, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ stripeCustomerId: null })
      .where(and(eq(users.id, userId), eq(users.stripeCustomerId, customer)));
    await tx
      .update(subscriptions)
      .set(endedNow(at))
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.stripeCustomerId, customer), notInArray(subscriptions.status, ENDED)));
  });
}

const ENDED = ["canceled", "incomplete_expired"];

function endedNow(at: Date) {
  return {
    status: sql`case when ${subscriptions.status} in ('incomplete', 'incomplete_expired') then 'incomplete_expired' else 'canceled' end`,
    cancelAtPeriodEnd: false,
    canceledAt: sql`coalesce(${subscriptions.canceledAt}, ${at.toISOString()}::timestamptz)`,
    syncedAt: at,
    updatedAt: at,
  };
}

/** Spec §3 subscriptionDetails, from the local copy. */
export function detailsOf(row: SubscriptionRow): SubscriptionDetails {
  return {
    id: row.id,
    status: row.status,
    planAmount: row.planAmount,
    planCurrency: row.planCurrency,
    planInterval: row.planInterval,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelAt: row.cancelAt?.toISOString() ?? null,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
  };
}

function dateOf(unixSeconds: number | null | undefined): Date | null {
  return typeof unixSeconds === "number" ? new Date(unixSeconds * 1000) : null;
}
