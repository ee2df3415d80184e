import * as v from "valibot";
import { ProviderId } from "./provider-schemas.ts";

/*
 * What changed on a tracker between its latest window of runs and the runs before it: per provider, the products, companies and cited domains that entered or left the top
 * 10 (by how many answers named each) beyond the run-to-run noise, with their counts in both windows.
 */

export const ChangesQuery = v.object({ provider: v.optional(ProviderId) });
export type ChangesQuery = v.InferInput<typeof ChangesQuery>;

/** `count` of the window's `n` answers named (or cited) the item. */
export const ChangeCount = v.object({ count: v.number(), n: v.number() });
export type ChangeCount = v.InferOutput<typeof ChangeCount>;

export const ChangedItem = v.object({ name: v.string(), before: ChangeCount, after: ChangeCount });
export type ChangedItem = v.InferOutput<typeof ChangedItem>;

/**
 * In the latest top 10 and not in the previous one (`entered`), and the reverse (`left`), most
 * named first: only those whose change is beyond the run-to-run noise (ADR 050). `withinNoise`:
 * how many other items crossed the top 10's edge by no more than the runs vary.
 */
export const TopListChanges = v.object({ entered: v.array(ChangedItem), left: v.array(ChangedItem), withinNoise: v.optional(v.number(), 0) });
export type TopListChanges = v.InferOutput<typeof TopListChanges>;

/** One window: its runs (oldest first) and the provider's answers in them. The baseline (`before`) is up to 7 runs before the latest window. */
export const ChangeWindow = v.object({ runIds: v.array(v.string()), n: v.number() });

export const ProviderChanges = v.object({
  windows: v.object({ before: ChangeWindow, after: ChangeWindow }),
  products: TopListChanges,
  companies: TopListChanges,
  /** Cited domains (hosts of the sources). */
  domains: TopListChanges,
});
export type ProviderChanges = v.InferOutput<typeof ProviderChanges>;

/** GET /api/trackers/{id}/changes. `ready` false (and no providers) until two windows of runs exist in the current series segment. */
export const TrackerChanges = v.object({
  ready: v.boolean(),
  /** The window's size in runs (the tracker's `alertWindow`). */
  window: v.number(),
  providers: v.record(ProviderId, ProviderChanges),
});
export type TrackerChanges = v.InferOutput<typeof TrackerChanges>;
