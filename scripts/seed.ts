/**
 * Fills a database with saved searches for one user, for trying the history at scale and for
 * bench/history.ts. A few searches run for real (the app in this process, providers on the
 * loopback simulator, labelled Simulated like any simulated search); the rest are copies of them,
 * one a minute back in time, so the rows are what the app writes. The user is created if missing
 * (and made Pro, so the copies are not free searches) and signs in with the printed password.
 *
 *   bun run seed --searches 10000 [--user seed] [--password seed-password]
 *
 * It writes where the server would read: DATABASE_URL, or PGlite under DATA_DIR (default ./data).
 * On PGlite it takes DATA_DIR as the server does (ADR 024): while a server runs there it is refused
 * (exit 11, naming the server's pid); stop the server first.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { searches, subscriptions, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { assembleOrExit } from "#src/server/assemble.ts";
import { createOwnerOnly } from "#src/server/owner-only.ts";

/** Queries of different catalogue categories, so the copies are not all one answer. */
const QUERIES = [
  "best running shoes",
  "best project management software",
  "best noise cancelling headphones",
  "best password manager",
  "best espresso machine",
];

export type SeedOptions = { searches: number; username?: string; password?: string };

/**
 * Seeds `database` (migrated) with `searches` completed searches for one user; returns the user's
 * id and the ids of the searches. `handle` is the app the real searches run through.
 */
export async function seedSearches(database: Database, handle: typeof fetch, { searches: count, username = "seed", password = "seed-password" }: SeedOptions) {
  const { db } = database;
  const json = { "content-type": "application/json" };
  const auth = await handle("http://localhost/api/login", { method: "POST", headers: json, body: JSON.stringify({ username, password }) });
  const signedIn = auth.ok
    ? auth
    : await handle("http://localhost/api/register", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ username, email: `${username}@example.com`, password }),
      });
  if (!signedIn.ok) throw new Error(`could not sign in or register ${username}: ${signedIn.status} ${await signedIn.text()}`);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no user ${username}`);
  await db
    .insert(subscriptions)
    .values({ id: `sub_seed_${user.id}`, userId: user.id, stripeCustomerId: `cus_seed_${user.id}`, status: "active" })
    .onConflictDoNothing();
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const api = createApiClient({ baseUrl: "http://localhost", fetch: handle, headers: { cookie } });

  const originals: string[] = [];
  for (const query of QUERIES.slice(0, Math.min(count, QUERIES.length))) originals.push((await api.search({ query, iterations: 1 })).result.id);
  const copies = count - originals.length;
  // Each copy: one of the real rows, created `n` minutes before now, so pages of history go back in time.
  for (let from = 1; from <= copies; from += 1000) {
    const to = Math.min(copies, from + 999);
    await db.execute(sql`
      insert into ${searches} (user_id, query, iterations, options, result, total_products, total_companies, total_links, iteration_count, status, simulated, created_at, completed_at)
      select s.user_id, s.query, s.iterations, s.options, s.result, s.total_products, s.total_companies, s.total_links, s.iteration_count, s.status, s.simulated,
             now() - make_interval(mins => n), now() - make_interval(mins => n)
      from generate_series(${from}::int, ${to}::int) as n
      join ${searches} s on s.id = (array[${sql.join(
        originals.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}])[1 + n % ${originals.length}]`);
  }
  return { userId: user.id, originals, cookie };
}

if (import.meta.main) {
  createOwnerOnly();
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const count = Number(arg("--searches") ?? 10_000);
  if (!Number.isInteger(count) || count < 1) throw new Error("--searches must be a whole number of at least 1");
  // No pages while seeding: the app needs no client build, only an (empty) assets folder.
  const distDir = mkdtempSync(join(tmpdir(), "seed-assets-"));
  mkdirSync(join(distDir, "public"));
  const assembly = await assembleOrExit({
    env: { ...process.env, SIMULATE_PROVIDERS: "on" },
    renderer: () => () => Promise.resolve(new Response("no pages while seeding", { status: 404 })),
    distDir,
    simulate: { latency: { kind: "fixed", ms: 0 } },
  });
  const { app, database, env } = assembly;
  const handle = ((input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch;
  const username = arg("--user") ?? "seed";
  const password = arg("--password") ?? "seed-password";
  const started = performance.now();
  await seedSearches(database, handle, { searches: count, username, password });
  console.log(
    `seeded ${count} searches for ${username} (password ${password}) in ${((performance.now() - started) / 1000).toFixed(1)} s · db ${database.kind === "pglite" ? `pglite in ${env.DATA_DIR}` : "DATABASE_URL"}`,
  );
  await assembly.close();
  process.exit(0);
}
