/**
 * Writes that arrive while the previous group is being written go together as the next group, so
 * many small writes cost a few statements. A write that finds nothing in progress goes at once, or
 * after `waitMs` when a little delay costs nothing and gathers more. `write` takes a group and
 * answers one value per item, in order.
 *
 * When a group of several fails, each of its items is written alone, so one item's failure (a row
 * whose parent is gone) is its own and not its neighbours'.
 */
export function groupWrites<I, O>(write: (items: I[]) => Promise<O[]>, { max, waitMs = 0 }: { max: number; waitMs?: number }): (item: I) => Promise<O> {
  type Pending = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  let queued: Pending[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    while (queued.length > 0) {
      const group = queued.slice(0, max);
      queued = queued.slice(group.length);
      await settle(group);
    }
    writing = false;
  }

  async function settle(group: Pending[]): Promise<void> {
    try {
      const results = await write(group.map((p) => p.item));
      group.forEach((p, i) => p.resolve(results[i] as O));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const p of group) await settle([p]);
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queued.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}
