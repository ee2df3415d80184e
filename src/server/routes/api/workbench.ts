import { Elysia } from "elysia";
import * as v from "valibot";
import { CompareQuery, CompareReport } from "#src/contract/compare.ts";
import { BrandLensSettings, LensQuery, LensReport, SaveBrandLens } from "#src/contract/lens.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { allValues } from "#src/server/http/query-string.ts";
import type { Compare } from "#src/server/services/compare/index.ts";
import type { Lens } from "#src/server/services/lens/index.ts";
import { forTokens } from "#src/server/http/token-access.ts";

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Compare (spec §2) and the brand lens: Pro's analysis of saved searches. */
export function workbenchRoutes({ compare, lens }: { compare: Compare; lens: Lens }, guards: Guards) {
  // Compare and the lens report read Pro in their service once the query string is valid (ADR 034).
  return new Elysia()
    .use(guards)
    .get("/api/compare", ({ owner, query }) => compare.compare(owner, { query: query.compareQuery, variants: list(query.compareVariants) }), {
      transform: allValues,
      query: CompareQuery,
      response: CompareReport,
      detail: forTokens("compare", {
        tags: ["compare"],
        summary: "Compare a query with its variants",
        description:
          "Pro only. `compareQuery` and repeated `compareVariants` (spec §2); neither is 400 `No queries specified`. Each query is the caller's latest saved search of it (any letter case). Per item: the providers that returned it, and for searches with several iterations its pooled frequency with a 95% Wilson interval and Fisher's exact test against the original.",
      }),
    })
    .get("/api/user/brand-lens", ({ userId }) => lens.settings(userId), {
      signedIn: true,
      response: BrandLensSettings,
      detail: forTokens("lens", {
        tags: ["lens"],
        summary: "The caller's brand and competitors",
        description: "`{ brand, competitors }` from the profile; `brand` is null until named.",
      }),
    })
    .put("/api/user/brand-lens", ({ userId, body }) => lens.save(userId, body), {
      signedIn: true,
      body: SaveBrandLens,
      parse: "json",
      response: BrandLensSettings,
      detail: forTokens("lens", {
        tags: ["lens"],
        summary: "Name the brand and competitors",
        description: "Each with aliases (other names that mean it) and its own domains.",
      }),
    })
    .get(
      "/api/search/:id/lens",
      async ({ owner, params, query }) => {
        const override = query.brand
          ? { brand: query.brand, aliases: list(query.alias), domains: list(query.domain), competitors: list(query.competitor) }
          : undefined;
        return { lens: await lens.report(owner, params.id, override) };
      },
      {
        transform: allValues,
        query: LensQuery,
        response: v.object({ lens: v.nullable(LensReport) }),
        detail: forTokens("lens", {
          tags: ["lens"],
          summary: "The brand lens on a saved search",
          description:
            "Pro only. Per provider: the mention rate with its 95% interval and n, share of voice among the named brands, the positions among recommended products, and whether the brand's own domain is cited. The profile's brand, or one given here (`brand`, repeated `alias`, `domain`, `competitor`): a brand that is the profile's brand or one of its competitors (by name or other name, any letter case) keeps its saved other names and domains, and without `competitor` it is measured against the profile's other brands, so `brand` = the profile's brand answers exactly the profile's lens. `{ lens: null }` when no brand is named.",
        }),
      },
    );
}
