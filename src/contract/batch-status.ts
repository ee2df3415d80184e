/*
 * What a variant batch item's status means, written once for the server, the web and the CLI.
 * Plain values, without schemas (variants.ts builds its picklist from the list).
 */

export const BATCH_ITEM_STATUSES = ["pending", "queued", "running", "completed", "failed"] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];

/** On the job queue now: the page keeps polling while any item is. */
export function isActive(status: BatchItemStatus): boolean {
  return status === "queued" || status === "running";
}

/** Done with, well or not: a batch is finished when every item is. */
export function isFinished(status: BatchItemStatus): boolean {
  return status === "completed" || status === "failed";
}

/** What "run" starts when no items are named: never run, or failed; not one completed or on the queue. */
export function isRunnable(status: BatchItemStatus): boolean {
  return status === "pending" || status === "failed";
}
