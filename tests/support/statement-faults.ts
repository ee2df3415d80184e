import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";
import { clientOf, pgliteDatabase, postgresDatabase, type Database } from "#db/client.ts";

/** A statement as the driver is handed it: its text and its parameters. */
export type Statement = { text: string; params: readonly unknown[] };

type Rule = { matches: (statement: Statement) => boolean; skip: number; left: number; holdMs: number; seen: (statement: Statement) => void };

/**
 * The app's database with faults at its one real boundary, the driver: a statement matching a
 * rule fails as a lost connection does (SQLSTATE 57P01), or is answered only after a pause.
 * Everything else (pg-boss's own statements too) passes through. The wrapped database shares the
 * original's connection; closing it closes nothing (the original is the suite's).
 */
export function withStatementFaults(original: Database) {
  const rules: Rule[] = [];
  function take(statement: Statement): Rule | undefined {
    for (const rule of rules) {
      if (rule.left === 0 || !rule.matches(statement)) continue;
      if (rule.skip > 0) {
        rule.skip--;
        continue;
      }
      rule.left--;
      rule.seen(statement);
      return rule;
    }
    return undefined;
  }
  const lost = () => Object.assign(new Error("injected: the connection to the database was lost"), { code: "57P01" });
  /** The driver's query method, with the rules applied before (a failure) or after (a pause) it runs. */
  const wrap =
    (run: (...args: unknown[]) => unknown) =>
    (text: string, params: unknown[] = [], ...rest: unknown[]) => {
      const rule = take({ text, params });
      if (!rule) return run(text, params, ...rest);
      if (rule.holdMs === 0) throw lost();
      const pending = run(text, params, ...rest) as PromiseLike<unknown> & { values?: () => PromiseLike<unknown> };
      const held = <T>(result: PromiseLike<T>) => Promise.resolve(result).then(async (value) => (await Bun.sleep(rule.holdMs), value));
      // postgres.js's pending query is also asked for `.values()`: both are held.
      return Object.assign(held(pending), { values: () => held(pending.values ? pending.values() : pending) });
    };
  const method = original.kind === "pglite" ? "query" : "unsafe";
  const client = clientOf<object>(original);
  const proxy = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const bound = value.bind(target);
      return property === method ? wrap(bound) : bound;
    },
  });
  const wrapped = original.kind === "pglite" ? pgliteDatabase(proxy as PGlite) : postgresDatabase(proxy as Sql);
  return {
    database: { ...wrapped, close: async () => {} } satisfies Database,
    /**
     * The next `times` statements that match (after `skip` matching ones) fail; `holdMs`: run, then
     * answered that much later. Resolves `hit` at the first.
     */
    add(matches: (statement: Statement) => boolean, { times = 1, skip = 0, holdMs = 0 }: { times?: number; skip?: number; holdMs?: number } = {}) {
      let resolve = (_: Statement) => {};
      const hit = new Promise<Statement>((r) => {
        resolve = r;
      });
      const rule: Rule = { matches, skip, left: times, holdMs, seen: (statement) => resolve(statement) };
      rules.push(rule);
      // `stop`: no more failures (a rule of unbounded `times` ends when the test has seen what it failed).
      return { hit, left: () => rule.left, stop: () => void (rule.left = 0) };
    },
  };
}

/** A statement whose text starts as given (drizzle's lower-case `update "table" set ...`), ignoring case and spaces. */
export function startsWith(prefix: string): (statement: Statement) => boolean {
  const wanted = prefix.toLowerCase().replace(/\s+/g, " ");
  return ({ text }) => text.toLowerCase().replace(/\s+/g, " ").trimStart().startsWith(wanted);
}

/** pg-boss's insert of jobs for `queue`: one (its row, with the queue's name, one JSON parameter) or several (the name written into the statement). */
export function sendsJob(queue: string): (statement: Statement) => boolean {
  return ({ text, params }) =>
    /insert into pgboss\.job/i.test(text) &&
    (text.includes(`'${queue}'`) || params.some((param) => typeof param === "string" && param.includes(`"name":"${queue}"`)));
}
