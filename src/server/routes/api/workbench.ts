import { Elysia } from "elysia";
import * as v from "valibot";
import { CompareQuery, CompareReport } from "#src/contract/compare.ts";
import { BrandLensSettings, LensQuery, LensReport } from "#src/contract/lens.ts";
import { parseInput } from "#src/server/http/errors.ts";
import type { identity } from "#src/server/http/identity.ts";
import type { Compare } from "#src/server/services/compare/index.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { Lens } from "#src/server/services/lens/index.ts";
import { jsonBody } from "./docs.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** A query-string parameter's values as parsed objects: Elysia's `query` keeps one value of a repeated name, the URL keeps all. */
const params = (request: Request) => {
  const url = new URL(request.url);
  return Object.fromEntries([...new Set(url.searchParams.keys())].map((name) => [name, url.searchParams.getAll(name).length > 1 ? url.searchParams.getAll(name) : url.searchParams.get(name)]));
};
const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Compare (spec §2) and the brand lens: Pro's analysis of saved searches. */
export function workbenchRoutes({ compare, lens }: { compare: Compare; lens: Lens }, who: ReturnType<typeof identity>) {
  return new Elysia()
    .use(who)
    .get(
      "/api/compare",
      ({ owner, request }) => {
        const asked = parseInput(CompareQuery, params(request));
        return compare.compare(owner, { query: asked.compareQuery, variants: list(asked.compareVariants) });
      },
      {
        response: CompareReport,
        detail: forTokens("compare", {
          tags: ["compare"],
          summary: "Compare a query with its variants",
          description:
            "Pro only. `compareQuery` and repeated `compareVariants` (spec §2); neither is 400 `No queries specified`. Each query is the caller's latest saved search of it (any letter case). Per item: the providers that returned it, and for searches with several iterations its pooled frequency with a 95% Wilson interval and Fisher's exact test against the original.",
        }),
      },
    )
    .get(
      "/api/user/brand-lens",
      ({ owner }) => {
        if (!owner.userId) throw new DomainError("NOT_SIGNED_IN", "Not signed in");
        return lens.settings(owner.userId);
      },
      { response: BrandLensSettings, detail: forTokens("lens", { tags: ["lens"], summary: "The caller's brand and competitors", description: "`{ brand, competitors }` from the profile; `brand` is null until named." }) },
    )
    .put(
      "/api/user/brand-lens",
      ({ owner, body }) => {
        if (!owner.userId) throw new DomainError("NOT_SIGNED_IN", "Not signed in");
        return lens.save(owner.userId, parseInput(BrandLensSettings, body));
      },
      {
        response: BrandLensSettings,
        detail: forTokens("lens", { tags: ["lens"], summary: "Name the brand and competitors", description: "Each with aliases (other names that mean it) and its own domains.", requestBody: jsonBody(BrandLensSettings) }),
      },
    )
    .get(
      "/api/search/:id/lens",
      async ({ owner, params: path, request }) => {
        const asked = parseInput(LensQuery, params(request));
        const override = asked.brand ? { brand: asked.brand, aliases: list(asked.alias), domains: list(asked.domain), competitors: list(asked.competitor) } : undefined;
        return { lens: await lens.report(owner, path.id, override) };
      },
      {
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
