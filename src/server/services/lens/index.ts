import { eq } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { BrandLensSettings, type LensReport } from "#src/contract/lens.ts";
import { brandLens, lensSettings, type LensOverride } from "#src/core/lens.ts";
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
     * The lens on one of the owner's saved searches: the profile's brand, or the brand given (an
     * override) against the profile's market (lensSettings). The one lens the web, the CLI and
     * MCP show. Null when no brand is named. 404 for a search that is not theirs.
     */
    async report(owner: Owner, searchId: string, override?: LensOverride): Promise<LensReport | null> {
      const userId = await billing.requirePro(owner.userId);
      const result = await search.get(owner, searchId);
      if (!result) throw new DomainError("NOT_FOUND", "Search not found");
      const chosen = lensSettings(await settings(userId), override);
      return chosen ? brandLens(result, chosen) : null;
    },
  };
}

export type Lens = ReturnType<typeof createLens>;
