import { expect } from "bun:test";
import type { Page } from "playwright-core";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { waitFor } from "./wait.ts";

/* A tracker page's Chromium tests (issue 26) drive the API through the signed-in page's own session. */

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
