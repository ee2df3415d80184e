import type { shares } from "#db/schema.ts";
import type { Owner } from "../owner.ts";

export type ShareRow = typeof shares.$inferSelect;

/** Whose searches a link reads (and is made of): its owner's, by their account alone, never a visitor's browser. */
export function readerOf(userId: string): Owner {
  return { userId, anonymousId: "share-link" };
}

/**
 * The time a tracker's link reads its data as of (ADR 048): none for a living one; a frozen one's
 * clock stopped at its newest finished run, or before any run when none had finished.
 */
export function asOfOf(link: Pick<ShareRow, "frozen" | "frozenAt">): Date | undefined {
  if (!link.frozen) return undefined;
  return link.frozenAt ?? new Date(0);
}
