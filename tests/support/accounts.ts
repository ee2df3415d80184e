import { eq, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { subscriptions, users } from "#db/schema.ts";
import type { App } from "#src/server/app.ts";
import { createAgent, type AgentOptions } from "#tests/support/agent.ts";

type Agent = ReturnType<typeof createAgent>;

let accounts = 0;

/** Fresh, valid registration details (unique per call). */
export function newAccount(overrides: Partial<{ username: string; email: string; password: string }> = {}) {
  const n = `${process.pid}${++accounts}`;
  return { username: `user${n}`, email: `user${n}@example.com`, password: "correct horse battery", ...overrides };
}

/** Registers through the API (the agent is then signed in) and returns the details and user id. */
export async function signUp(agent: Agent, database: Database, overrides: Parameters<typeof newAccount>[0] = {}) {
  const account = newAccount(overrides);
  await agent.api.register(account);
  const [row] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, account.username.toLowerCase()));
  if (!row) throw new Error("registered user not found");
  return { ...account, id: row.id };
}

/** Makes the user Pro the way billing will: an active subscription row. */
export async function grantPro(database: Database, userId: string, status = "active"): Promise<void> {
  await database.db.insert(subscriptions).values({ id: `sub_test_${crypto.randomUUID()}`, userId, stripeCustomerId: `cus_test_${userId}`, status });
}

/** A signed-in Pro visitor. */
export async function createProAgent(app: App, database: Database, options?: AgentOptions) {
  const agent = createAgent(app, options);
  const account = await signUp(agent, database);
  await grantPro(database, account.id);
  return { agent, account };
}
