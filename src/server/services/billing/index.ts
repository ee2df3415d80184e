import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { subscriptions } from "#db/schema.ts";

/** Spec §6: Pro is a subscription Stripe calls active or trialing. */
export const PRO_STATUSES = ["active", "trialing"];

/** Subscriptions. The one place that answers "is this user Pro?": quota, search and routes ask here. */
export function createBilling({ db }: { db: Db }) {
  return {
    async isPro(userId: string | undefined): Promise<boolean> {
      if (!userId) return false;
      const [row] = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, PRO_STATUSES)))
        .limit(1);
      return row !== undefined;
    },
  };
}

export type Billing = ReturnType<typeof createBilling>;
