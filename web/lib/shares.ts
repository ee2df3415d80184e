import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import type { Share, ShareKind } from "#src/contract/shares.ts";
import { formatDate } from "#src/core/dates.ts";

/**
 * The signed-in person's share links (the profile's "Shared links" card), for the
 * server's prefetch and the browser alike. One person's data: dropped on sign-in and sign-out
 * (personalQueryKeys).
 */
export const shareQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: ["shares"], queryFn: async () => (await api.listShares()).shares }),
};

/** What a Share control offers to share: the API's kind and id, with what the dialog calls it. */
export type ShareTarget =
  | { kind: "search"; id: string; title: string }
  | { kind: "compare"; id: string; title: string; variants: string[] }
  | { kind: "tracker"; id: string; title: string };

/** The link's lifetimes the dialog offers, in days; null: until revoked. */
export const EXPIRY_CHOICES = [null, 7, 30, 90] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

export function expiryChoiceLabel(days: ExpiryChoice): string {
  return days === null ? "Never" : `${days} days`;
}

const kindNames: Record<ShareKind, string> = { search: "Search", compare: "Comparison", tracker: "Tracker" };

/** A listed link's kind as the owner reads it; a tracker's says which report it shows. */
export function shareKindLabel(share: Pick<Share, "kind" | "frozen">): string {
  if (share.kind !== "tracker") return kindNames[share.kind];
  return share.frozen ? "Tracker · frozen snapshot" : "Tracker · live report";
}

/** "Never expires", "Expires Dec 3, 2026, 09:00 UTC" or "Expired" (the server's word, or the clock's once the date has passed). */
export function expiryText(share: Pick<Share, "expiresAt" | "expired">, now: Date = new Date()): string {
  if (share.expired) return "Expired";
  if (!share.expiresAt) return "Never expires";
  return new Date(share.expiresAt).getTime() <= now.getTime() ? "Expired" : `Expires ${formatDate(share.expiresAt)}`;
}
