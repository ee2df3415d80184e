import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { FolderInUseError } from "#db/lock.ts";
import { assemble, type AssembleOptions } from "#src/server/assemble.ts";
import { get } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";
import { loadPageRenderer } from "#web/render.tsx";
import { selectRows } from "#db/client.ts";

/*
 * The one composition root (ADR 032): what assemble() opened, close() closes, newest first, and
 * a failed assembly closes it too; what the caller handed in is the caller's.
 */

const options = (vars: Record<string, string> = {}): AssembleOptions => ({
  env: {
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(join(tmpdir(), "ai-search-assemble-")),
    SESSION_SECRET: "assemble-secret-assemble-secret-0123",
    SIMULATE_PROVIDERS: "on",
    ...vars,
  },
  renderer: loadPageRenderer,
});
const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

test("close() frees what assemble() opened: the data folder can be taken again, the simulators stop", async () => {
  const setup = options();
  const first = await assemble(setup);
  // The folder is this assembly's until it closes (ADR 024).
  expect(await assemble(setup).catch((error: unknown) => error)).toBeInstanceOf(FolderInUseError);
  expect((await get(first.app, "/healthz")).status).toBe(200);
  const simulatorUrl = first.simulator?.baseUrls.openai ?? "";
  const stripeUrl = first.stripe?.origin ?? "";
  expect([await answers(simulatorUrl), await answers(stripeUrl)]).toEqual([true, true]);

  await first.close();
  expect([await answers(simulatorUrl), await answers(stripeUrl)]).toEqual([false, false]);
  const second = await assemble(setup);
  try {
    expect(second.migrations).toBe(0); // the same database, migrated by the first
    expect((await get(second.app, "/healthz")).status).toBe(200);
  } finally {
    await second.close();
  }
});

test("a start that fails part-way (the port is taken) closes what it had opened before the error reaches the caller", async () => {
  const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("taken") });
  try {
    const failing = options({ HOST: "127.0.0.1", PORT: String(taken.port) });
    const error = await assemble({ ...failing, listen: true }).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe("EADDRINUSE");
    // The database it had opened on DATA_DIR is closed: the folder is free for the next start.
    const next = await assemble({ ...failing, env: { ...failing.env, PORT: "0" }, listen: true });
    try {
      expect((await fetch(`http://127.0.0.1:${next.app.server?.port}/healthz`)).status).toBe(200);
    } finally {
      await next.close();
    }
  } finally {
    await taken.stop(true);
  }
});

test("a caller's database is the caller's: close() leaves it open", async () => {
  const database = await openTestDatabase("pglite");
  try {
    const assembly = await assemble({ ...options(), database });
    expect(assembly.migrations).toBe(0);
    await assembly.close();
    const rows = await selectRows<{ n: number }>(database.db, sql`select count(*)::int as n from users`);
    expect(rows[0]?.n).toBe(0);
  } finally {
    await database.close();
  }
});
