import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import type { NotificationSettings, UpdateNotifications } from "#src/contract/notifications.ts";
import { DomainError } from "../errors.ts";
import type { Mailer } from "../mail/index.ts";

/** The e-mails a user asked for (issue 26); turning one on is refused while the server sends no e-mail. */
export function createNotifications({ db, mailer }: { db: Db; mailer: Pick<Mailer, "configured"> }) {
  async function settings(userId: string): Promise<NotificationSettings> {
    const [row] = await db
      .select({ email: users.email, digest: users.digestEmails, alerts: users.alertEmails })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw new DomainError("NOT_FOUND", "Account not found");
    return { emailConfigured: mailer.configured, ...row };
  }
  return {
    settings,
    async update(userId: string, change: UpdateNotifications): Promise<NotificationSettings> {
      if (!mailer.configured && (change.digest || change.alerts))
        throw new DomainError("INVALID_INPUT", "E-mail is not configured on this server (SMTP_URL), so no e-mail can be turned on");
      await db
        .update(users)
        .set({
          ...(change.digest === undefined ? {} : { digestEmails: change.digest }),
          ...(change.alerts === undefined ? {} : { alertEmails: change.alerts }),
          updatedAt: new Date(),
        })
        .where(eq(users.id, userId));
      return settings(userId);
    },
  };
}

export type Notifications = ReturnType<typeof createNotifications>;
