import type { ProviderChanges, TopListChanges } from "#src/contract/changes.ts";
import type { Frequency, RunRecord } from "#src/contract/search-result.ts";
import { nameKey } from "./names.ts";
import { frequencies } from "./stats.ts";
import { hostOf } from "./urls.ts";

/** How long a top list is. */
export const TOP = 10;

/**
 * What changed for one provider between two windows of answers (issue 26): each kind's items
 * counted as the product counts a search's (frequencies: an answer counts an item once), then the
 * items entering and leaving the top list.
 */
export function providerChanges(before: { runIds: string[]; answers: RunRecord[] }, after: { runIds: string[]; answers: RunRecord[] }): ProviderChanges {
  const kinds = {
    products: (answer: RunRecord) => answer.products,
    companies: (answer: RunRecord) => answer.companies,
    domains: (answer: RunRecord) => answer.sources.map(hostOf).filter((host): host is string => host !== null),
  };
  const count = (answers: RunRecord[], names: (answer: RunRecord) => string[]) => ({
    items: frequencies(answers.map(names), answers.length),
    n: answers.length,
  });
  const [products, companies, domains] = Object.values(kinds).map((names) => topListChanges(count(before.answers, names), count(after.answers, names)));
  return {
    windows: { before: { runIds: before.runIds, n: before.answers.length }, after: { runIds: after.runIds, n: after.answers.length } },
    products: products!,
    companies: companies!,
    domains: domains!,
  };
}

/**
 * The items in the `after` top list and not in the `before` one (entered), and the reverse (left),
 * most named first, each with its count in both windows. An item is in the top list when fewer
 * than TOP items were named more often: ties at the edge are all in, so that two items named
 * equally often never swap places on their names' order alone and read as a change.
 */
export function topListChanges(before: { items: Frequency[]; n: number }, after: { items: Frequency[]; n: number }): TopListChanges {
  const beforeTop = topKeys(before.items);
  const afterTop = topKeys(after.items);
  const countIn = (window: { items: Frequency[]; n: number }) => {
    const counts = new Map(window.items.map((item) => [nameKey(item.name), item.count]));
    return (key: string) => ({ count: counts.get(key) ?? 0, n: window.n });
  };
  const beforeCount = countIn(before);
  const afterCount = countIn(after);
  const changed = (items: Frequency[], inTop: Set<string>, notIn: Set<string>) =>
    items
      .filter((item) => inTop.has(nameKey(item.name)) && !notIn.has(nameKey(item.name)))
      .map((item) => ({ name: item.name, before: beforeCount(nameKey(item.name)), after: afterCount(nameKey(item.name)) }));
  // frequencies() sorts by count, then name: each list comes out most named first.
  return { entered: changed(after.items, afterTop, beforeTop), left: changed(before.items, beforeTop, afterTop) };
}

function topKeys(items: Frequency[]): Set<string> {
  const edge = items[TOP - 1]?.count ?? 0;
  return new Set(items.filter((item, index) => index < TOP || item.count === edge).map((item) => nameKey(item.name)));
}
