import { eq } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { BrandLensSettings, type BrandEntry, type LensReport } from "#src/contract/lens.ts";
import { brandLens } from "#src/core/lens.ts";
import type { Billing } from "../billing/index.ts";
import { DomainError } from "../errors.ts";
import type { Owner } from "../owner.ts";
import type { SearchService } from "../search/index.ts";

const NONE: BrandLensSettings = { brand: null, competitors: [] };

/** The brand lens: the person's brand and competitors (kept in their profile), and the lens on a saved search (Pro). */
export function createLens({ db, billing, search }: { db: Db; billing: Billing; search: SearchService }) {
  async function settings(userId: string): Promise<BrandLensSettings> {
    const [row] = await db.select({ lens: users.brandLens }).from(users).where(eq(users.id, userId)).limit(1);
    const parsed = v.safeParse(BrandLensSettings, row?.lens ?? NONE);
    return parsed.success ? parsed.output : NONE;
  }

  return {
    settings,

    async save(userId: string, next: BrandLensSettings): Promise<BrandLensSettings> {
      await db.update(users).set({ brandLens: next }).where(eq(users.id, userId));
      return settings(userId);
    },

    /**
     * The lens on one of the owner's saved searches: for the brand given (an override), else the
     * profile's. Null when neither names a brand. 404 for a search that is not theirs.
     */
    async report(owner: Owner, searchId: string, override?: { brand: BrandEntry; competitors: BrandEntry[] }): Promise<LensReport | null> {
      const userId = await billing.requirePro(owner.userId);
      const result = await search.get(owner, searchId);
      if (!result) throw new DomainError("NOT_FOUND", "Search not found");
      const chosen = override ?? (await settings(userId));
      if (!chosen.brand) return null;
      return brandLens(result, { brand: chosen.brand, competitors: chosen.competitors });
    },
  };
}

export type Lens = ReturnType<typeof createLens>;
