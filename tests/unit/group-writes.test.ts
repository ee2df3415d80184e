import { expect, test } from "bun:test";
import { groupWrites } from "#src/core/group-writes.ts";

test("writes arriving while one is written go together as the next group, each answered in order", async () => {
  const groups: number[][] = [];
  const write = groupWrites<number, number>(
    async (items) => {
      groups.push(items);
      await Bun.sleep(10);
      return items.map((n) => n * 2);
    },
    { max: 3 },
  );
  const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => write(n)));
  expect(answers).toEqual([2, 4, 6, 8, 10, 12]);
  // The first went at once, alone; the rest waited for it and went at most three to a statement.
  expect(groups).toEqual([[1], [2, 3, 4], [5, 6]]);
});

test("with a wait, writes close together go as one", async () => {
  const groups: string[][] = [];
  const write = groupWrites<string, void>(
    async (items) => {
      groups.push(items);
      return items.map(() => undefined);
    },
    { max: 10, waitMs: 20 },
  );
  await Promise.all([write("a"), Bun.sleep(5).then(() => write("b"))]);
  expect(groups).toEqual([["a", "b"]]);
});

test("a failing item fails alone: its group is written item by item", async () => {
  const write = groupWrites<number, number>(
    async (items) => {
      if (items.includes(3)) throw new Error("no parent for 3");
      return items;
    },
    { max: 10, waitMs: 5 },
  );
  const outcomes = await Promise.allSettled([1, 2, 3, 4].map((n) => write(n)));
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
  expect((outcomes[2] as PromiseRejectedResult).reason.message).toBe("no parent for 3");
});
