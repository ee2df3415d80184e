import { expect, test } from "bun:test";
import { createPageCache, pageKey } from "#web/page-cache.ts";

test("a kept page comes back with the asking request's nonce in every place the first one's was", () => {
  const cache = createPageCache();
  cache.set("k", '<script nonce="AAA">1</script><script nonce="AAA">2</script>', "AAA");
  expect(cache.get("k", "BBB")).toBe('<script nonce="BBB">1</script><script nonce="BBB">2</script>');
  expect(cache.get("other", "BBB")).toBeUndefined();
});

test("a page older than the cache's age is rendered again, and the oldest goes first past the bound", () => {
  let now = 0;
  const cache = createPageCache({ maxEntries: 2, maxAgeMs: 1000, now: () => now });
  cache.set("a", "A", "n");
  now = 1000;
  expect(cache.get("a", "n")).toBe("A");
  now = 1001;
  expect(cache.get("a", "n")).toBeUndefined();
  cache.set("a", "A", "n");
  cache.set("b", "B", "n");
  cache.set("c", "C", "n");
  expect(cache.get("a", "n")).toBeUndefined();
  expect([cache.get("b", "n"), cache.get("c", "n")]).toEqual(["B", "C"]);
});

test("the key is the address and the data, not the times the data was read at", () => {
  const boot = (at: number, quota: number) =>
    JSON.stringify({ queryState: { queries: [{ state: { data: { remaining: quota }, dataUpdatedAt: at }, dehydratedAt: at }] } });
  const home = new URL("http://x/");
  expect(pageKey(home, boot(1, 5))).toBe(pageKey(home, boot(2, 5)));
  expect(pageKey(home, boot(1, 5))).not.toBe(pageKey(home, boot(1, 4)));
  expect(pageKey(home, boot(1, 5))).not.toBe(pageKey(new URL("http://x/?q=a"), boot(1, 5)));
  expect(pageKey(home, boot(1, 5))).not.toBe(pageKey(new URL("http://x/pricing"), boot(1, 5)));
});
