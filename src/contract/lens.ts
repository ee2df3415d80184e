import * as v from "valibot";
import { perProvider } from "./providers.ts";
import { ProviderId } from "./provider-schemas.ts";
import { modelOf, type SearchResult } from "./search-result.ts";
import { visibleOnly } from "./visible-input.ts";

/*
 * The brand lens: how one brand (and its competitors) fares in the models' answers. The person
 * names them once in their profile and may override them on any result.
 */

const Name = v.pipe(v.string("A name is required"), v.trim(), v.minLength(1, "A name is required"), v.maxLength(80, "A name must be at most 80 characters"));
const Domain = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "A domain looks like example.com"),
);

/** A brand as people write it: its name, other names that mean it, and the domains that are its own. */
export const BrandEntry = v.object({
  name: Name,
  aliases: v.optional(v.pipe(v.array(Name), v.maxLength(10, "At most 10 aliases")), []),
  domains: v.optional(v.pipe(v.array(Domain), v.maxLength(5, "At most 5 domains")), []),
});
export type BrandEntry = v.InferOutput<typeof BrandEntry>;

/**
 * A brand as a request writes it (the lens's PUT, a tracker's brand and competitors, the lens's
 * query string): as BrandEntry, and its names without an invisible character, the message naming
 * the field (`field`.name, `field`.aliases). What is read back keeps BrandEntry: a name stored
 * before the rule is shown visibly (src/core/display-text.ts), never refused.
 */
function brandInput(field: "brand" | "competitors") {
  return v.object({
    name: v.pipe(Name, visibleOnly(`${field}.name`)),
    aliases: v.optional(v.pipe(v.array(v.pipe(Name, visibleOnly(`${field}.aliases`))), v.maxLength(10, "At most 10 aliases")), []),
    domains: BrandEntry.entries.domains,
  });
}
export const BrandInput = brandInput("brand");
export const CompetitorInput = brandInput("competitors");

/** GET/PUT /api/user/brand-lens: the person's brand and competitors. */
export const BrandLensSettings = v.object(
  {
    brand: v.nullable(BrandEntry),
    competitors: v.optional(v.pipe(v.array(BrandEntry), v.maxLength(20, "At most 20 competitors")), []),
  },
  "The body must be a JSON object with a brand and competitors",
);
export type BrandLensSettings = v.InferOutput<typeof BrandLensSettings>;

/** PUT /api/user/brand-lens: BrandLensSettings as written, its names checked (BrandInput). */
export const SaveBrandLens = v.object(
  {
    brand: v.nullable(BrandInput),
    competitors: v.optional(v.pipe(v.array(CompetitorInput), v.maxLength(20, "At most 20 competitors")), []),
  },
  BrandLensSettings.message,
);

/** A share with its 95% Wilson interval (percent, 0..100) and the count behind it. */
export const Rate = v.object({ count: v.number(), n: v.number(), percentage: v.number(), low: v.number(), high: v.number() });
export type Rate = v.InferOutput<typeof Rate>;

/**
 * Per provider, whether its answers in a search came from its simulator (no key on the server):
 * every figure read from them is invented, and says so (ADR 023, ADR 033).
 */
export const SimulatedProviders = v.object(perProvider(() => v.boolean()));
export type SimulatedProviders = v.InferOutput<typeof SimulatedProviders>;

/** Which providers' answers in a result were simulated. */
export function simulatedOf(result: Pick<SearchResult, "models">): SimulatedProviders {
  return perProvider((id) => modelOf(result, id).simulated);
}

/** One provider through the lens, over the iterations that answered. */
export const ProviderLens = v.object({
  /** Its answers came from its simulator: the figures below are invented. */
  simulated: v.boolean(),
  /** Iterations whose answer names the brand (a "could not find it" is not a mention). */
  mentionRate: Rate,
  /** Among the named brands (the brand and its competitors), each one's share of all their mentions. */
  shareOfVoice: v.array(v.object({ name: v.string(), mentions: v.number(), share: v.number(), isBrand: v.boolean() })),
  /** Where the brand stood among the products each answer recommended (1 = first), and how often it was not among them. */
  positions: v.array(v.object({ position: v.number(), count: v.number() })),
  notRecommended: v.number(),
  /** Iterations whose sources include one of the brand's own domains. */
  domainCited: Rate,
});
export type ProviderLens = v.InferOutput<typeof ProviderLens>;

/** The lens on one saved search (GET /api/search/{id}/lens). */
export const LensReport = v.object({
  brand: BrandEntry,
  competitors: v.array(BrandEntry),
  /** From every iteration when the result kept them; from the displayed answers only in older results. */
  basis: v.picklist(["iterations", "displayed"]),
  providers: v.record(ProviderId, ProviderLens),
});
export type LensReport = v.InferOutput<typeof LensReport>;

/** A brand's name as a request gives it alone (the lens's query string, MCP's brand_lens), its message naming `field`. */
export const NameInput = (field: string) => v.pipe(Name, visibleOnly(field));

/** The lens of GET /api/search/{id}/lens: the profile's brand, or one given in the query string (`brand`, `alias`, `competitor`, `domain`). */
export const LensQuery = v.object({
  brand: v.optional(NameInput("brand")),
  alias: v.optional(v.union([NameInput("alias"), v.array(NameInput("alias"))])),
  domain: v.optional(v.union([Domain, v.array(Domain)])),
  competitor: v.optional(v.union([NameInput("competitor"), v.array(NameInput("competitor"))])),
});
