import { describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, desc, eq, sql } from "drizzle-orm";
import { createDatabase, DATA_IMAGE, selectRows, writeDataImage, type Db } from "#db/client.ts";
import { FolderInUseError, HOLDER_FILE } from "#db/lock.ts";
import { DEFAULT_MIGRATIONS_FOLDER, migrate, MigrationError } from "#db/migrate.ts";
import { searches, users, type NewSearch, type NewUser } from "#db/schema.ts";
import { describeEachDatabase, freshPostgresUrl, postgresAvailable } from "#tests/support/databases.ts";

const journal = JSON.parse(readFileSync(join(DEFAULT_MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};
const MIGRATION_COUNT = journal.entries.length;

/** SQLSTATE of a (possibly drizzle-wrapped) driver error. */
function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

async function expectUniqueViolation(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  expect(sqlState(error)).toBe("23505");
}

let userCounter = 0;
function newUser(overrides: Partial<NewUser> = {}): NewUser {
  const n = ++userCounter;
  return {
    username: `user${n}`,
    email: `user${n}@example.com`,
    passwordHash: "x",
    firstName: "Test",
    lastName: `User${n}`,
    ...overrides,
  };
}

async function insertUser(db: Db, overrides: Partial<NewUser> = {}) {
  const [row] = await db.insert(users).values(newUser(overrides)).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

async function tableNames(db: Db): Promise<string[]> {
  const rows = await selectRows<Record<string, unknown>>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rows.map((r) => String(r.table_name));
}

describeEachDatabase(
  "migrations",
  (getDb) => {
    test("a fresh database gets every migration", async () => {
      const database = getDb();
      expect(await migrate(database)).toEqual({ applied: MIGRATION_COUNT });
      expect(await tableNames(database.db)).toEqual([
        "api_tokens",
        "daily_usage",
        "instances",
        "mail_sends",
        "provider_pauses",
        "provider_slot_waits",
        "provider_slots",
        "rate_counters",
        "searches",
        "shares",
        "spend",
        "spend_holds",
        "stripe_events",
        "subscriptions",
        "tracker_alerts",
        "tracker_calls",
        "tracker_missed_runs",
        "tracker_report_recipients",
        "tracker_report_sends",
        "tracker_rollups",
        "tracker_run_queries",
        "tracker_runs",
        "tracker_source_rollups",
        "trackers",
        "users",
        "variant_batch_items",
        "variant_batches",
        "variant_sets",
        "workspace_audit",
        "workspace_invitations",
        "workspace_members",
        "workspaces",
      ]);
    });

    test("a second start applies nothing", async () => {
      const database = getDb();
      expect(await migrate(database)).toEqual({ applied: 0 });
      const rows = await selectRows<Record<string, unknown>>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(rows[0]?.n).toBe(MIGRATION_COUNT);
    });
  },
  { migrated: false },
);

describeEachDatabase(
  "a migration that fails",
  (getDb) => {
    test("is named (its journal tag), with the database's error as the cause, and nothing of the run is kept", async () => {
      // A copy of the migrations whose third one ends in a statement the database refuses.
      const folder = mkdtempSync(join(tmpdir(), "app-migrations-"));
      cpSync(DEFAULT_MIGRATIONS_FOLDER, folder, { recursive: true });
      appendFileSync(join(folder, "0002_workbench.sql"), "\n--> statement-breakpoint\nSELECT 1/0;");
      try {
        const error = await migrate(getDb(), { migrationsFolder: folder }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(MigrationError);
        expect((error as MigrationError).migration).toBe("0002_workbench");
        expect(sqlState(error)).toBe("22012");
        expect(await tableNames(getDb().db)).toEqual([]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  },
  { migrated: false },
);

describeEachDatabase("schema", (getDb, kind) => {
  test("a username is unique case-insensitively; an email is not (nothing proves it, ADR 026)", async () => {
    const { db } = getDb();
    await insertUser(db, { username: "Alice", email: "Alice@Example.com" });
    await expectUniqueViolation(insertUser(db, { username: "aLICE" }));
    await insertUser(db, { username: "Alice2", email: "alice@EXAMPLE.COM" });
    // Different names are fine, and a lower() lookup finds the original spelling.
    await insertUser(db, { username: "Alicia", email: "alicia@example.com" });
    const found = await db
      .select({ username: users.username })
      .from(users)
      .where(eq(sql`lower(${users.username})`, "alice"));
    expect(found).toEqual([{ username: "Alice" }]);
  });

  test("a search row round-trips its jsonb result", async () => {
    const { db } = getDb();
    const user = await insertUser(db);
    const result = {
      query: "best espresso machine",
      models: {
        openai: { products: [{ name: "Gaggia Classic", price: 449.99, tags: ["manual", "entry"] }], error: null },
        anthropic: { products: [], companies: ["Breville"], ok: true },
        gemini: { sources: [{ url: "https://example.com/a?b=1&c=2", title: "Ünïcödé “quotes” 🚀" }] },
      },
      nested: { deep: { deeper: [1, 2.5, -3, 0, null, false, "str"] } },
    };
    const options = { models: ["openai", "anthropic", "gemini"], webSearch: true };
    const [inserted] = await db
      .insert(searches)
      .values({ userId: user.id, query: "best espresso machine", iterations: 2, options, result, status: "completed" })
      .returning({ id: searches.id });
    expect(inserted?.id).toMatch(/^[0-9a-f-]{36}$/);

    const [row] = await db.select().from(searches).where(eq(searches.id, inserted!.id));
    expect(row?.result).toEqual(result);
    expect(row?.options).toEqual(options);
    expect(row?.status).toBe("completed");
    expect(row?.simulated).toBe(false);
    expect(row?.totalProducts).toBe(0);
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(row?.completedAt).toBeNull();

    // Stored as a real jsonb object, not a double-encoded JSON string.
    const raw = await selectRows(
      db,
      sql`select jsonb_typeof(${searches.result}) as t, ${searches.result} -> 'models' -> 'openai' -> 'products' -> 0 ->> 'name' as name
          from ${searches} where ${searches.id} = ${inserted!.id}`,
    );
    expect(raw).toEqual([{ t: "object", name: "Gaggia Classic" }]);
    expect(kind).toMatch(/pglite|postgres/);
  });

  test("history query: a user's searches, newest first, served by the index", async () => {
    const { db } = getDb();
    const me = await insertUser(db);
    const other = await insertUser(db);
    const at = (iso: string) => new Date(iso);
    const rows: NewSearch[] = [
      { userId: me.id, query: "middle", iterations: 1, createdAt: at("2025-03-02T10:00:00Z") },
      { userId: other.id, query: "someone else", iterations: 1, createdAt: at("2025-03-05T10:00:00Z") },
      { userId: me.id, query: "oldest", iterations: 1, createdAt: at("2025-03-01T10:00:00Z") },
      { anonymousId: "anon-1", query: "anonymous", iterations: 1, createdAt: at("2025-03-04T10:00:00Z") },
      { userId: me.id, query: "newest", iterations: 1, createdAt: at("2025-03-03T10:00:00.123Z") },
    ];
    await db.insert(searches).values(rows);

    const history = await db
      .select({ query: searches.query, createdAt: searches.createdAt })
      .from(searches)
      .where(eq(searches.userId, me.id))
      .orderBy(desc(searches.createdAt))
      .limit(20);
    expect(history.map((h) => h.query)).toEqual(["newest", "middle", "oldest"]);
    expect(history[0]?.createdAt.toISOString()).toBe("2025-03-03T10:00:00.123Z");

    const anon = await db.select({ query: searches.query }).from(searches).where(eq(searches.anonymousId, "anon-1")).orderBy(desc(searches.createdAt));
    expect(anon).toEqual([{ query: "anonymous" }]);

    // The relational API works (the schema is passed to drizzle).
    const withSearches = await db.query.users.findFirst({
      where: eq(users.id, me.id),
      with: { searches: { orderBy: [asc(searches.createdAt)], columns: { query: true } } },
    });
    expect(withSearches?.searches.map((s) => s.query)).toEqual(["oldest", "middle", "newest"]);

    // The planner can read the history straight off (user_id, created_at desc): no sort step.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return (await selectRows<Record<string, unknown>>(tx, sql`explain select * from searches where user_id = ${me.id} order by created_at desc limit 20`))
        .map((r) => String(r["QUERY PLAN"]))
        .join("\n");
    });
    expect(plan).toContain("searches_user_created_idx");
    expect(plan).not.toMatch(/\bSort\b/);
  });

  test("deleting a user cascades to their searches", async () => {
    const { db } = getDb();
    const user = await insertUser(db);
    await db.insert(searches).values({ userId: user.id, query: "q", iterations: 1 });
    await db.delete(users).where(eq(users.id, user.id));
    expect(await db.select().from(searches).where(eq(searches.userId, user.id))).toEqual([]);
  });
});

describe("migrate() on PostgreSQL", () => {
  test.skipIf(!postgresAvailable)(
    "concurrent starts on one fresh database: all succeed, the migrations are applied once",
    async () => {
      const url = await freshPostgresUrl();
      const instances = await Promise.all([1, 2, 3].map(() => createDatabase({ databaseUrl: url, dataDir: "/nonexistent-unused" })));
      try {
        const results = await Promise.all(instances.map((instance) => migrate(instance)));
        const applied = results.map((r) => r.applied);
        expect(applied.reduce((a, b) => a + b, 0)).toBe(MIGRATION_COUNT);
        expect(applied.filter((n) => n !== 0)).toEqual([MIGRATION_COUNT]);

        const { db } = instances[0]!;
        const migrationRows = await selectRows<Record<string, unknown>>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        expect(migrationRows[0]?.n).toBe(MIGRATION_COUNT);
        // Every instance released the advisory lock.
        const locks = await selectRows<Record<string, unknown>>(db, sql`select count(*)::int as n from pg_locks where locktype = 'advisory'`);
        expect(locks[0]?.n).toBe(0);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    },
    60_000,
  );
});

describe("createDatabase() without a URL", () => {
  test("persists PGlite under <dataDir>/pglite across restarts", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "app-pglite-test-"));
    try {
      const first = await createDatabase({ dataDir });
      expect(first.kind).toBe("pglite");
      expect(await migrate(first)).toEqual({ applied: MIGRATION_COUNT });
      await insertUser(first.db, { username: "persisted" });
      await first.close();
      expect(existsSync(join(dataDir, "pglite", "PG_VERSION"))).toBe(true);

      const second = await createDatabase({ dataDir });
      try {
        expect(await migrate(second)).toEqual({ applied: 0 });
        const found = await second.db.select({ username: users.username }).from(users);
        expect(found).toEqual([{ username: "persisted" }]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  test("a data folder is one database's at a time: a second open is refused naming the holder, until the first is closed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "app-pglite-lock-test-"));
    try {
      const first = await createDatabase({ dataDir });
      const refused = await createDatabase({ dataDir }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(FolderInUseError);
      expect((refused as FolderInUseError).folder).toBe(dataDir);
      expect((refused as FolderInUseError).holder).toMatchObject({ pid: process.pid });
      await first.close();
      expect(existsSync(join(dataDir, HOLDER_FILE))).toBe(false); // a clean close says nothing stale

      const second = await createDatabase({ dataDir });
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  test("a new data folder starts from the data image the binary ships: migrated already, and what is written then survives a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "app-pglite-image-test-"));
    // The binary's PGlite folder: its WebAssembly files and the image (scripts/compile.ts).
    const assets = join(dir, "assets");
    cpSync(join(import.meta.dir, "../../node_modules/@electric-sql/pglite/dist"), assets, { recursive: true });
    await writeDataImage(join(assets, DATA_IMAGE), migrate);
    const dataDir = join(dir, "data");
    try {
      const first = await createDatabase({ dataDir, pgliteAssetsDir: assets });
      expect(await migrate(first)).toEqual({ applied: 0 });
      await insertUser(first.db, { username: "from-image" });
      await first.close();

      const second = await createDatabase({ dataDir, pgliteAssetsDir: assets });
      try {
        expect(await migrate(second)).toEqual({ applied: 0 });
        expect(await second.db.select({ username: users.username }).from(users)).toEqual([{ username: "from-image" }]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
