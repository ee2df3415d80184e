import { expect } from "bun:test";
import type { Page } from "playwright-core";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { waitFor } from "#tests/support/wait.ts";

/** The tracker pages' e2e tests (issue 26) call the API as the signed-in page does, with its cookies. */
export async function apiJson<T>(page: Page, method: "GET" | "POST" | "PATCH", path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(path, { method, data });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

/** Run a tracker now, through the API, and wait for the run to end: completed. */
export async function runTrackerNow(page: Page, trackerId: string): Promise<TrackerRun> {
  const { run } = await apiJson<{ run: TrackerRun }>(page, "POST", `/api/trackers/${trackerId}/runs`);
  const ended = await waitFor(
    async () => {
      const read = await apiJson<TrackerRun>(page, "GET", `/api/trackers/${trackerId}/runs/${run.id}`);
      return read.status !== "queued" && read.status !== "running" && read;
    },
    { what: "the run to end", timeoutMs: 120_000 },
  );
  expect(ended.status).toBe("completed");
  return ended;
}
