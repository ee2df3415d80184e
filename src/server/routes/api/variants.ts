import { Elysia } from "elysia";
import { CreateBatch, GenerateVariants, GeneratedVariants, LatestBatch, RunBatch, VariantBatch } from "#src/contract/variants.ts";
import { parseInput } from "#src/server/http/errors.ts";
import type { identity } from "#src/server/http/identity.ts";
import type { Billing } from "#src/server/services/billing/index.ts";
import type { Variants } from "#src/server/services/variants/index.ts";
import * as v from "valibot";
import { jsonBody } from "./docs.ts";
import { forTokens } from "#src/server/http/token-access.ts";

const BatchId = v.pipe(v.string(), v.uuid("Batch not found"));
const QueryParam = v.object({ query: v.pipe(v.string("query is required"), v.trim(), v.minLength(1, "query is required"), v.maxLength(500, "query must be at most 500 characters")) });

/** Spec §7 generate-variants, and the batches that run variants as searches (Pro). */
export function variantRoutes(variants: Variants, billing: Billing, who: ReturnType<typeof identity>) {
  const pro = (userId: string | undefined) => billing.requirePro(userId);
  return new Elysia()
    .use(who)
    .post("/api/generate-variants", ({ caller, body }) => variants.generate(caller, parseInput(GenerateVariants, body)), {
      response: GeneratedVariants,
      detail: forTokens("variants", {
        tags: ["variants"],
        summary: "Write query variants",
        description:
          "Pro only (else 403 `Pro subscription required`). One connected model (VARIANTS_PROVIDER, or the first connected) writes 5 rephrasings a real person might type, each with a one-line reasoning, through its SDK's structured output. `executeSearches: true` also saves them as a batch and starts it (`batchId`).",
        requestBody: jsonBody(GenerateVariants),
      }),
    })
    .post("/api/variant-batches", async ({ owner, body }) => variants.createBatch(await pro(owner.userId), parseInput(CreateBatch, body)), {
      response: VariantBatch,
      detail: forTokens("variants", { tags: ["variants"], summary: "Save variants as a batch", description: "Pro only. The variants as kept, edited or added; nothing runs until POST …/run.", requestBody: jsonBody(CreateBatch) }),
    })
    .get("/api/variant-batches", async ({ owner, query }) => ({ batch: await variants.latest(await pro(owner.userId), parseInput(QueryParam, query).query) }), {
      response: LatestBatch,
      detail: forTokens("variants", { tags: ["variants"], summary: "The latest batch of a query", description: "Pro only. `query` in any letter case; `{ batch: null }` when there is none." }),
    })
    .get("/api/variant-batches/:id", async ({ owner, params }) => variants.batch(await pro(owner.userId), parseInput(BatchId, params.id)), {
      response: VariantBatch,
      detail: forTokens("variants", { tags: ["variants"], summary: "One batch", description: "Pro only; the caller's own batches (others 404). Each item's status and, once run, its search id." }),
    })
    .post("/api/variant-batches/:id/run", async ({ owner, params, body }) => variants.run(await pro(owner.userId), parseInput(BatchId, params.id), parseInput(RunBatch, body ?? {}).positions), {
      response: VariantBatch,
      detail: forTokens("variants", {
        tags: ["variants"],
        summary: "Run a batch's searches",
        description: "Pro only. Queues the given `positions` (all not yet completed when absent) on the server's job queue, two at a time; they run even if the page closes, and never cancel each other or the dashboard's search.",
        requestBody: jsonBody(RunBatch),
      }),
    });
}
