import * as v from "valibot";
import { CompareReport } from "./compare.ts";
import { SavedSearchResponse } from "./search-wire.ts";
import type { TokenScope } from "./tokens.ts";
import { Tracker, TrackerRun } from "./trackers.ts";

/*
 * Share links: a read-only link to a saved search, a comparison or a tracker that
 * anyone holding it may open without an account. These names are the contract the web, the CLI,
 * MCP and the tests share.
 */

export const shareKinds = ["search", "compare", "tracker"] as const;
export const ShareKind = v.picklist(shareKinds, `kind must be one of ${shareKinds.join(", ")}`);
export type ShareKind = v.InferOutput<typeof ShareKind>;

/**
 * The scope that reads what a link of each kind shows: an API token makes such a link only with it,
 * besides `shares` (a link must not show what the token could not read itself).
 */
export const SHARE_READ_SCOPE = { search: "history", compare: "compare", tracker: "trackers" } as const satisfies Record<ShareKind, TokenScope>;

/**
 * Said when a link is made with an API token: the link is the account's, not the token's, so
 * revoking the token (a laptop's, a script's) does not break a report already sent.
 */
export const LINK_OUTLIVES_TOKEN =
  "Made with an API token: this link keeps working after the token is revoked, until it expires or is revoked itself (DELETE /api/shares/{id}, aisc share revoke <id>, or your profile).";

/** The longest a link may be given to live; without `expiresInDays` it lives until revoked. */
export const MAX_SHARE_DAYS = 365;
/** Live (not expired) links a user may have at once. */
export const MAX_LIVE_SHARES = 500;
/** Where a link opens: `${origin}${SHARE_PATH}/${token}`. */
export const SHARE_PATH = "/shared";
/** A link's reads are counted in windows of this many seconds (SHARE_READS_PER_MINUTE a window): past the limit, the longest wait. */
export const SHARE_READS_WINDOW_S = 60;
/** A link's token: 32 random bytes, base64url (256 bits). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** POST /api/shares. */
export const CreateShare = v.object(
  {
    kind: ShareKind,
    /**
     * search: the saved search's id; compare: the id of the original query's saved search (the
     * comparison is with its variants' latest saved searches, pinned when shared); tracker: its id.
     */
    id: v.pipe(v.string("id is required"), v.trim(), v.minLength(1, "id is required"), v.maxLength(200, "id is too long")),
    expiresInDays: v.optional(
      v.pipe(
        v.number(`expiresInDays must be a whole number from 1 to ${MAX_SHARE_DAYS}`),
        v.integer(`expiresInDays must be a whole number from 1 to ${MAX_SHARE_DAYS}`),
        v.minValue(1, `expiresInDays must be a whole number from 1 to ${MAX_SHARE_DAYS}`),
        v.maxValue(MAX_SHARE_DAYS, `expiresInDays must be a whole number from 1 to ${MAX_SHARE_DAYS}`),
      ),
    ),
    /** tracker only: true shares a frozen snapshot (the runs finished when shared); false or absent, the living report. */
    frozen: v.optional(v.boolean("frozen must be true or false")),
    /** compare only: the variants compared (the page's compareVariants); absent, the query's saved variants. */
    variants: v.optional(v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500))), v.maxLength(20, "at most 20 variants"))),
    /** The workspace the link belongs to (ADR 071): a tracker's link is always its tracker's; a search's or a comparison's, the caller's personal one by default. */
    workspaceId: v.optional(v.pipe(v.string("workspaceId must be a workspace id"), v.uuid("workspaceId must be a workspace id"))),
  },
  "The body must be a JSON object with kind and id",
);
export type CreateShare = v.InferOutput<typeof CreateShare>;

/** A link as its owner lists it. */
export const Share = v.object({
  id: v.string(),
  /** The workspace it belongs to (ADR 071). */
  workspaceId: v.string(),
  kind: ShareKind,
  /** What it shows: the search's, comparison's or tracker's id. */
  targetId: v.string(),
  /** The query or the tracker's name, as when shared. */
  title: v.string(),
  /** The link itself (it holds the token). */
  url: v.string(),
  /** A tracker's link: a frozen snapshot (true) or the living report (false); false for the other kinds. */
  frozen: v.boolean(),
  createdAt: v.string(),
  /** Absent: it lives until revoked. */
  expiresAt: v.optional(v.string()),
  expired: v.boolean(),
  /** When someone last opened it; null until then. */
  lastOpenedAt: v.nullable(v.string()),
});
export type Share = v.InferOutput<typeof Share>;

/** The answer to POST /api/shares (201); `note` when an API token made it (LINK_OUTLIVES_TOKEN). */
export const CreatedShare = v.object({ ...Share.entries, note: v.optional(v.string()) });
export type CreatedShare = v.InferOutput<typeof CreatedShare>;
export const ShareList = v.object({ shares: v.array(Share) });
export type ShareList = v.InferOutput<typeof ShareList>;
export const RevokedShare = v.object({ success: v.literal(true) });

/** A run as a link shows it: without its cost (what the owner spends is theirs). */
export const SharedTrackerRun = v.omit(TrackerRun, ["cost"]);
export type SharedTrackerRun = v.InferOutput<typeof SharedTrackerRun>;
export const SharedTrackerRunList = v.object({ runs: v.array(SharedTrackerRun), nextBefore: v.optional(v.string()) });
export type SharedTrackerRunList = v.InferOutput<typeof SharedTrackerRunList>;

/**
 * A tracker as a link shows it: its definition without what only the owner sees (the webhook, the
 * budget, the cost estimate, its last run's cost, why it is paused: "paused" is all a link tells).
 */
export const SharedTracker = v.object({
  ...v.omit(Tracker, ["webhook", "monthlyBudgetUsd", "pausedReason", "estimate", "savedSearches", "workspaceId"]).entries,
  lastRun: v.nullable(SharedTrackerRun),
});
export type SharedTracker = v.InferOutput<typeof SharedTracker>;

const SharedCommon = {
  /** When the link was made. */
  sharedAt: v.string(),
  expiresAt: v.optional(v.string()),
};

/**
 * GET /api/shared/{token}: what the link shows, with no identity of its owner. `search` is the
 * saved search in the spec's JSON (as GET /api/search/{id} answers). A tracker's runs, trend,
 * alerts, changes and sources are read from /api/shared/{token}/… as the owner reads them from
 * /api/trackers/{id}/…; a frozen one answers as of `frozenAt` (the newest run finished when shared).
 */
export const SharedView = v.variant("kind", [
  v.object({ kind: v.literal("search"), ...SharedCommon, search: SavedSearchResponse }),
  v.object({ kind: v.literal("compare"), ...SharedCommon, report: CompareReport }),
  v.object({ kind: v.literal("tracker"), ...SharedCommon, frozen: v.boolean(), frozenAt: v.optional(v.string()), tracker: SharedTracker }),
]);
export type SharedView = v.InferOutput<typeof SharedView>;
