import { randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, isNotNull, isNull, max, or } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { shares, trackerRuns, users, workspaceMembers } from "#db/schema.ts";
import { MAX_LIVE_SHARES, SHARE_PATH, type CreateShare, type Share, type ShareKind } from "#src/contract/shares.ts";
import type { Billing } from "../billing/index.ts";
import type { Compare } from "../compare/index.ts";
import { DomainError } from "../errors.ts";
import type { SearchService } from "../search/index.ts";
import type { Trackers } from "../trackers/index.ts";
import type { Variants } from "../variants/index.ts";
import { PRO_REQUIRED } from "#src/contract/constants.ts";
import { checkRole, ensurePersonal, proHere, requireRole } from "../workspaces/access.ts";
import type { Actor, Audit } from "../workspaces/audit.ts";
import { asOfOf, readerOf, type ShareRow } from "./row.ts";
import { sharedTracker } from "./strip.ts";

export type LinksDeps = {
  db: Db;
  search: Pick<SearchService, "get">;
  compare: Pick<Compare, "compare">;
  trackers: Pick<Trackers, "get" | "runs" | "access">;
  variants: Pick<Variants, "current">;
  billing: Pick<Billing, "requirePro" | "isPro">;
  /** Where links made and revoked are written, in their workspace's log (ADR 071). */
  audit: Pick<Audit, "record">;
  clock: () => Date;
};

export const SHARE_LIMIT = `You already have ${MAX_LIVE_SHARES} live share links, the most an account can have: revoke one you no longer need (your profile, or aisc share revoke <id>) to make another`;

/**
 * The owner's side of share links (ADR 048): made for what is the caller's own, listed
 * with when each was last opened, revoked. A link is its token; `origin` is where the caller
 * reached us, for the link to open there too.
 */
export function createLinks({ db, search, compare, trackers, variants, billing, audit, clock }: LinksDeps) {
  /** What the link will show, checked to be the caller's: its title and what is pinned or frozen. */
  async function targetOf(
    userId: string,
    input: CreateShare,
  ): Promise<Pick<typeof shares.$inferInsert, "title" | "frozen" | "frozenAt" | "frozenTracker" | "searchIds" | "workspaceId">> {
    if (input.frozen !== undefined && input.kind !== "tracker") throw new DomainError("INVALID_INPUT", "frozen is for a tracker's link only");
    if (input.variants !== undefined && input.kind !== "compare") throw new DomainError("INVALID_INPUT", "variants are for a comparison's link only");
    const owner = readerOf(userId);
    // A search's or a comparison's link goes where the caller says, as an editor there; a tracker's is its tracker's workspace's.
    const workspaceOf = async () => {
      const personal = await ensurePersonal(db, userId);
      if (input.workspaceId && input.workspaceId !== personal) await requireRole(db, userId, input.workspaceId, "editor");
      return input.workspaceId ?? personal;
    };
    if (input.kind === "search") {
      const found = await search.get(owner, input.id);
      if (!found) throw new DomainError("NOT_FOUND", "Search not found");
      return { title: found.query, workspaceId: await workspaceOf() };
    }
    if (input.kind === "compare") {
      await billing.requirePro(userId);
      const original = await search.get(owner, input.id);
      if (!original) throw new DomainError("NOT_FOUND", "Search not found");
      const asked = input.variants ?? (await variants.current(userId, original.query))?.variants.map((variant) => variant.query) ?? [];
      // The compare service picks each variant's latest saved search (the page's rule); the link pins them.
      const report = await compare.compare(owner, { query: original.query, variants: asked });
      const searchIds = report.searches.filter((found) => found.role === "variant").map((found) => found.id);
      return { title: original.query, searchIds, workspaceId: await workspaceOf() };
    }
    // A tracker's link needs what the tracker routes need (Pro, or a workspace with Pro), then what editing it needs: the editor role.
    if (!(await proHere(db, billing.isPro, userId))) throw new DomainError("PRO_REQUIRED", PRO_REQUIRED);
    const { workspaceId } = await trackers.access(userId, input.id, "editor");
    if (input.workspaceId && input.workspaceId !== workspaceId)
      throw new DomainError("INVALID_INPUT", "workspaceId: a tracker's link belongs to the tracker's own workspace");
    const tracker = await trackers.get(userId, input.id);
    if (!input.frozen) return { title: tracker.name, workspaceId };
    // Frozen: the clock stops at the newest run that had finished; the definition is kept as it is now.
    const [newest] = await db
      .select({ at: max(trackerRuns.scheduledFor) })
      .from(trackerRuns)
      .where(and(eq(trackerRuns.trackerId, tracker.id), isNotNull(trackerRuns.finishedAt)));
    const frozenAt = newest?.at ? new Date(newest.at) : null;
    const asOf = asOfOf({ frozen: true, frozenAt });
    const [lastRun] = (await trackers.runs(userId, tracker.id, { limit: 1 }, { asOf })).runs;
    return {
      title: tracker.name,
      workspaceId,
      frozen: true,
      frozenAt,
      frozenTracker: sharedTracker({ ...tracker, nextRunAt: null, lastRun: lastRun ?? null }),
    };
  }

  return {
    async create(actor: Actor, input: CreateShare, origin: string): Promise<Share> {
      const { userId } = actor;
      const target = await targetOf(userId, input);
      const now = clock();
      const row = await db.transaction(async (tx) => {
        // The user's row is the lock: two creates at once cannot both see room for one more.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        const [live] = await tx
          .select({ n: count() })
          .from(shares)
          .where(and(eq(shares.userId, userId), or(isNull(shares.expiresAt), gt(shares.expiresAt, now))));
        if ((live?.n ?? 0) >= MAX_LIVE_SHARES) throw new DomainError("CONFLICT", SHARE_LIMIT);
        const [inserted] = await tx
          .insert(shares)
          .values({
            userId,
            kind: input.kind,
            targetId: input.id,
            token: randomBytes(32).toString("base64url"),
            ...target,
            createdAt: now,
            expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
          })
          .returning();
        if (inserted)
          await audit.record(
            actor,
            {
              workspaceId: inserted.workspaceId,
              action: "link.shared",
              target: inserted.title,
              details: { shareId: inserted.id, kind: inserted.kind, targetId: inserted.targetId, frozen: inserted.frozen },
            },
            tx,
          );
        return inserted;
      });
      if (!row) throw new Error("could not save the share link");
      return listed(row, origin, now);
    },

    /** Newest first, expired ones too (said so), each with when it was last opened: the caller's own, or with `workspaceId` every link of that workspace (its members'). */
    async list(userId: string, origin: string, { workspaceId }: { workspaceId?: string } = {}): Promise<{ shares: Share[] }> {
      if (workspaceId) await requireRole(db, userId, workspaceId, "viewer");
      const rows = await db
        .select()
        .from(shares)
        .where(workspaceId ? eq(shares.workspaceId, workspaceId) : eq(shares.userId, userId))
        .orderBy(desc(shares.createdAt), desc(shares.id));
      const now = clock();
      return { shares: rows.map((row) => listed(row, origin, now)) };
    },

    /**
     * The caller's own link, or one in a workspace where they are an editor or above (a viewer's
     * try is ROLE_REQUIRED); any other id reads like a missing one. The link answers 404 from then on.
     */
    async revoke(actor: Actor, id: string): Promise<void> {
      const [found] = UUID.test(id)
        ? await db
            .select({ link: shares, role: workspaceMembers.role })
            .from(shares)
            .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, shares.workspaceId), eq(workspaceMembers.userId, actor.userId)))
            .where(eq(shares.id, id))
            .limit(1)
        : [];
      if (!found || (found.link.userId !== actor.userId && !found.role)) throw new DomainError("NOT_FOUND", "Share link not found");
      if (found.link.userId !== actor.userId && found.role) checkRole(found.role, "editor");
      await db.transaction(async (tx) => {
        await tx.delete(shares).where(eq(shares.id, found.link.id));
        await audit.record(
          actor,
          { workspaceId: found.link.workspaceId, action: "link.revoked", target: found.link.title, details: { shareId: found.link.id, kind: found.link.kind } },
          tx,
        );
      });
    },
  };
}

export type Links = ReturnType<typeof createLinks>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function listed(row: ShareRow, origin: string, now: Date): Share {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    kind: row.kind as ShareKind,
    targetId: row.targetId,
    title: row.title,
    url: `${origin}${SHARE_PATH}/${row.token}`,
    frozen: row.frozen,
    createdAt: row.createdAt.toISOString(),
    ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
    expired: row.expiresAt !== null && row.expiresAt <= now,
    lastOpenedAt: row.lastOpenedAt?.toISOString() ?? null,
  };
}
