import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { providerCatalogue, type ProviderId } from "#src/contract/providers.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import type { SourcesReport, Trend, TrendMetric } from "#src/contract/trend.ts";
import { NO_GAP, sourceTypeLabels } from "#web/lib/sources.ts";
import { countText, formatPoint, runTimes } from "#web/lib/trend.ts";
import { nextTestIp } from "./agent.ts";
import { waitFor } from "./wait.ts";

/* A tracker page's Chromium tests drive the API through the signed-in page's own session. */

/** The seed's requests (scripts/seed.ts), sent to the server at `baseUrl` from one client address (as `bun run seed` sends them to its app). */
export function seedFetch(baseUrl: string): typeof fetch {
  const address = nextTestIp();
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    return fetch(new URL(url.pathname + url.search, baseUrl), {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), "x-forwarded-for": address },
    });
  }) as typeof fetch;
}

/** The API's answer to `method path` as the page's user, which must be 2xx. */
export async function pageJson<T>(page: Page, method: "GET" | "POST" | "PATCH", path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(path, { method, data });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

/** Run now, through the API, and wait for the run to complete. */
export async function runOnce(page: Page, trackerId: string): Promise<TrackerRun> {
  const { run } = await pageJson<{ run: TrackerRun }>(page, "POST", `/api/trackers/${trackerId}/runs`);
  const ended = await waitFor(
    async () => {
      const read = await pageJson<TrackerRun>(page, "GET", `/api/trackers/${trackerId}/runs/${run.id}`);
      return read.status !== "queued" && read.status !== "running" && read;
    },
    { what: "the run to end", timeoutMs: 120_000 },
  );
  expect(ended.status).toBe("completed");
  return ended;
}

/** A table's body as the cells a person reads. */
export async function cells(page: Page, testId: string, within = page.locator("body")): Promise<string[][]> {
  const table = within.getByTestId(testId);
  await table.waitFor();
  return table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")));
}

/** The table of a provider's trend chart (its region's name), as the rows a person reads: date, subject, figure with its band, n (position: k of n). */
export function trendRows(page: Page, region: string): Promise<string[][]> {
  return cells(page, "trend-table", page.getByRole("region", { name: region }));
}

/** The API's points for `provider`, as its trend table should show them (oldest run first, the brand first). */
export async function expectedTrendRows(page: Page, trackerId: string, metric: TrendMetric, provider: ProviderId = "openai"): Promise<string[][]> {
  const { points } = await pageJson<Trend>(page, "GET", `/api/trackers/${trackerId}/trend?metric=${metric}&provider=${provider}`);
  // A run's time as the page tells runs apart: with the seconds when two share a minute.
  const ats = [...new Set(points.map((point) => point.at))].toSorted();
  const times = new Map(runTimes(ats).map((time, index) => [ats[index], time]));
  return points
    .toSorted((a, b) => a.at.localeCompare(b.at) || Number(b.isBrand) - Number(a.isBrand))
    .map((point) => [times.get(point.at) ?? "", point.subject, formatPoint(point, metric), countText(point, metric)]);
}

/** The citation gap as the page should list it: the API's top 20, or the empty state. */
export async function expectGap(page: Page, report: SourcesReport): Promise<void> {
  const gap = page.getByTestId("citation-gap");
  if (report.gap.length === 0) return gap.getByText(NO_GAP).waitFor();
  expect(await cells(page, "gap-table", gap)).toEqual(
    report.gap
      .slice(0, 20)
      .map((row) => [
        row.domain,
        sourceTypeLabels[row.type],
        String(row.competitorAnswers),
        String(row.brandAnswers),
        row.providers.map((id) => providerCatalogue[id].name).join(", "),
      ]),
  );
}
