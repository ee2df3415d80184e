import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { selectRows } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { describeEachDatabase, migrateUpTo } from "#tests/support/databases.ts";

type Row = Record<string, unknown>;

/**
 * Migration 0019 on a database of the version before it, holding what accounts have: trackers
 * with runs, share links, saved variants, an account with nothing, tokens. Nothing is lost, and
 * everything lands in its maker's personal workspace, which they own.
 */
describeEachDatabase(
  "workspaces: migrating existing data (0019)",
  (getDb) => {
    test("every account gets its personal workspace as owner; its trackers, runs, links and saved variants move in, none lost", async () => {
      const left = await migrateUpTo(getDb(), "0019_workspaces");
      expect(left).toBeGreaterThan(0);
      const { db } = getDb();
      const rows = <T extends Row = Row>(query: ReturnType<typeof sql>) => selectRows<T>(db, query);
      // Plain SQL naming only the columns that version has, as its data would be.
      const user = async (name: string) =>
        (
          await rows<{ id: string }>(
            sql`insert into users (username, email, password_hash, first_name, last_name, created_at) values (${name}, ${`${name}@example.com`}, 'x', ${name}, '', now() - interval '30 days') returning id`,
          )
        )[0]!.id;
      const [alice, bob, carol] = [await user("alice"), await user("bob"), await user("carol")];
      const tracker = async (userId: string, name: string) =>
        (
          await rows<{ id: string }>(
            sql`insert into trackers (user_id, name, queries, brand, providers, iterations, cron, timezone, question_tags)
                  values (${userId}, ${name}, '["best crm"]'::jsonb, '{"name":"HubSpot"}'::jsonb, '{openai,gemini}', 2, '0 9 * * 1', 'UTC', '{"best crm":"core"}'::jsonb) returning id`,
          )
        )[0]!.id;
      const aliceTrackers = [await tracker(alice, "CRM"), await tracker(alice, "Shoes")];
      const bobTracker = await tracker(bob, "Bikes");
      for (const trackerId of [...aliceTrackers, bobTracker])
        for (let i = 0; i < 3; i++)
          await db.execute(
            sql`insert into tracker_runs (tracker_id, status, trigger, segment, scheduled_for) values (${trackerId}, 'completed', 'schedule', 1, now() - ${`${i} days`}::interval)`,
          );
      await db.execute(
        sql`insert into shares (user_id, kind, target_id, token, title) values (${alice}, 'tracker', ${aliceTrackers[0]!}, 'alice-link', 'CRM'), (${bob}, 'search', ${crypto.randomUUID()}, 'bob-link', 'best bikes')`,
      );
      await db.execute(
        sql`insert into variant_sets (user_id, query, variants) values (${alice}, 'best crm', '[]'::jsonb), (${bob}, 'best bikes', '[]'::jsonb)`,
      );
      await db.execute(
        sql`insert into api_tokens (user_id, name, token_hash, scopes) values (${alice}, 'laptop', 'h1', '{search,history,variants,compare,lens,account:read,trackers,shares}'), (${bob}, 'narrow', 'h2', '{search}')`,
      );
      const before = await counts();
      expect(before).toEqual({ users: 3, trackers: 3, tracker_runs: 9, shares: 2, variant_sets: 2, api_tokens: 2 });

      expect(await migrate(getDb())).toEqual({ applied: left });

      expect(await counts()).toEqual(before);
      const personal = await rows<{ user_id: string; workspace_id: string; role: string; name: string }>(
        sql`select m.user_id, m.workspace_id, m.role, w.name from workspace_members m join workspaces w on w.id = m.workspace_id and w.personal_user_id = m.user_id order by m.user_id`,
      );
      expect(personal.map((row) => [row.user_id, row.role, row.name]).sort()).toEqual(
        [alice, bob, carol].map((id) => [id, "owner", "Personal"]).sort() as string[][],
      );
      expect(await rows(sql`select count(*)::int as n from workspaces`)).toEqual([{ n: 3 }]);
      expect(await rows(sql`select count(*)::int as n from workspace_members`)).toEqual([{ n: 3 }]);
      const home = new Map(personal.map((row) => [row.user_id, row.workspace_id]));
      for (const table of ["trackers", "shares", "variant_sets"]) {
        const misplaced = await rows(
          sql`select t.id from ${sql.identifier(table)} t where t.workspace_id is distinct from (select id from workspaces where personal_user_id = t.user_id)`,
        );
        expect({ table, misplaced }).toEqual({ table, misplaced: [] });
        const required = await rows<{ is_nullable: string }>(
          sql`select is_nullable from information_schema.columns where table_name = ${table} and column_name = 'workspace_id'`,
        );
        expect({ table, required }).toEqual({ table, required: [{ is_nullable: "NO" }] });
      }
      expect(await rows(sql`select id from trackers where workspace_id = ${home.get(alice)!} order by name`)).toHaveLength(2);
      // The runs stay with their trackers; the tags and the rest of each tracker are as they were.
      expect(
        await rows(sql`select count(*)::int as n from tracker_runs r join trackers t on t.id = r.tracker_id where t.workspace_id = ${home.get(bob)!}`),
      ).toEqual([{ n: 3 }]);
      expect(await rows(sql`select name, question_tags from trackers where id = ${bobTracker}`)).toEqual([
        { name: "Bikes", question_tags: { "best crm": "core" } },
      ]);
      // A token that held every earlier scope gets the new one; a narrower one is left as it was.
      expect(await rows(sql`select name, scopes from api_tokens order by name`)).toEqual([
        { name: "laptop", scopes: ["search", "history", "variants", "compare", "lens", "account:read", "trackers", "shares", "workspaces"] },
        { name: "narrow", scopes: ["search"] },
      ]);

      async function counts() {
        const tables = ["users", "trackers", "tracker_runs", "shares", "variant_sets", "api_tokens"];
        const found: Record<string, number> = {};
        for (const table of tables) {
          const [row] = await selectRows<{ n: number }>(getDb().db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
          found[table] = Number(row?.n);
        }
        return found;
      }
    });
  },
  { migrated: false },
);
