import { describe, expect, test } from "bun:test";
import type { RunRecord } from "#src/contract/search-result.ts";
import { providerChanges, topListChanges } from "#src/core/changes.ts";
import { frequencies } from "#src/core/stats.ts";

/* Issue 26: what entered and left a tracker's top lists between two windows of answers. */

const answer = (products: string[], sources: string[] = [], companies: string[] = []): RunRecord => ({
  status: "ok",
  text: "",
  products,
  companies,
  sources,
  searchQueries: [],
});

/** A window where item i is named by `counts[i]` of `n` answers. */
const window = (counts: Record<string, number>, n: number) => {
  const answers: string[][] = Array.from({ length: n }, () => []);
  for (const [name, count] of Object.entries(counts)) for (let i = 0; i < count; i++) answers[i]!.push(name);
  return { items: frequencies(answers, n), n };
};

describe("entering and leaving the top 10", () => {
  test("an item new to the top 10 entered, one no longer in it left, each with its count and n in both windows; the ones that stayed are not listed", () => {
    const stayed = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`Stay ${i}`, 10]));
    const before = window({ ...stayed, "Old CRM": 8, "HubSpot CRM": 2 }, 20);
    const after = window({ ...stayed, "HubSpot CRM": 7, "Old CRM": 1 }, 20);
    expect(topListChanges(before, after)).toEqual({
      entered: [{ name: "HubSpot CRM", before: { count: 2, n: 20 }, after: { count: 7, n: 20 } }],
      left: [{ name: "Old CRM", before: { count: 8, n: 20 }, after: { count: 1, n: 20 } }],
    });
  });

  test("an item gone from the answers left with a count of 0; most named first; names meet case-insensitively", () => {
    const before = window({ Pipedrive: 5, Zoho: 9, Monday: 3 }, 10);
    const after = window({ zoho: 4 }, 12);
    expect(topListChanges(before, after)).toEqual({
      entered: [],
      left: [
        { name: "Pipedrive", before: { count: 5, n: 10 }, after: { count: 0, n: 12 } },
        { name: "Monday", before: { count: 3, n: 10 }, after: { count: 0, n: 12 } },
      ],
    });
  });

  test("items tied at the 10th place are all in the top list: two equally named items never swap on their names' order alone", () => {
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`Top ${i}`, 9]));
    // Before, "Beta" is 10th and "Zeta" 11th by name; after, a new "Alpha" ties with them: nothing but Alpha changed.
    const before = window({ ...nine, Beta: 2, Zeta: 2 }, 10);
    const after = window({ ...nine, Alpha: 2, Beta: 2, Zeta: 2 }, 10);
    expect(topListChanges(before, after)).toEqual({
      entered: [{ name: "Alpha", before: { count: 0, n: 10 }, after: { count: 2, n: 10 } }],
      left: [],
    });
  });

  test("a provider's windows: products, companies and cited domains (hosts, an answer citing a site once), with each window's runs and answers", () => {
    const changes = providerChanges(
      { runIds: ["r1"], answers: [answer(["Acme"], ["https://www.g2.com/a", "https://g2.com/b"], ["Acme Inc"]), answer(["Acme"])] },
      { runIds: ["r2"], answers: [answer(["Globex"], ["https://reddit.com/r/crm"])] },
    );
    expect(changes.windows).toEqual({ before: { runIds: ["r1"], n: 2 }, after: { runIds: ["r2"], n: 1 } });
    expect(changes.products).toEqual({
      entered: [{ name: "Globex", before: { count: 0, n: 2 }, after: { count: 1, n: 1 } }],
      left: [{ name: "Acme", before: { count: 2, n: 2 }, after: { count: 0, n: 1 } }],
    });
    expect(changes.companies.left).toEqual([{ name: "Acme Inc", before: { count: 1, n: 2 }, after: { count: 0, n: 1 } }]);
    expect(changes.domains).toEqual({
      entered: [{ name: "reddit.com", before: { count: 0, n: 2 }, after: { count: 1, n: 1 } }],
      left: [{ name: "g2.com", before: { count: 1, n: 2 }, after: { count: 0, n: 1 } }],
    });
  });
});
