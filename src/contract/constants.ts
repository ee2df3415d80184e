/*
 * Plain values of the contract, without schemas: what the first page needs can import them
 * without bringing valibot along (ADR 006). search.ts and quota.ts re-export them.
 */

export const FREE_ITERATIONS = 1;
export const PRO_ITERATION_CHOICES = [1, 5, 10, 25, 50, 100] as const;
export const MAX_ITERATIONS = 100;

/** Spec §9: free callers (anonymous or signed in) get 5 searches per day. */
export const FREE_DAILY_SEARCHES = 5;

/** Spec §8 texts, sent by the server as `{ message }` and shown by the client. */
export const DAILY_LIMIT_MESSAGE = "You've reached your free daily search limit. Upgrade to Pro for unlimited searches.";
export const PRO_REQUIRED = "Pro subscription required";

/** The longest query (spec §5), wherever one is typed: a search, a variant, the history's filters. */
export const QUERY_MAX_LENGTH = 500;
/** The most variants a query's set or batch holds. */
export const MAX_VARIANTS = 20;

/** A tracker question's tag, at most this long; a tracker's questions carry at most MAX_TRACKER_TAGS different ones (ADR 068). */
export const TAG_MAX_LENGTH = 40;
export const MAX_TRACKER_TAGS = 20;
