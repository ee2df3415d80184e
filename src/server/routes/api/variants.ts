import { Elysia } from "elysia";
import { CreateBatch, CurrentVariants, GenerateVariants, GeneratedVariants, LatestBatch, QueryParam, RunBatch, SaveVariants, VariantBatch, VariantSet } from "#src/contract/variants.ts";
import { parseInput } from "#src/server/http/errors.ts";
import type { identity } from "#src/server/http/identity.ts";
import type { Billing } from "#src/server/services/billing/index.ts";
import type { Variants } from "#src/server/services/variants/index.ts";
import * as v from "valibot";
import { jsonBody } from "./docs.ts";
import { forTokens } from "#src/server/http/token-access.ts";

const BatchId = v.pipe(v.string(), v.uuid("Batch not found"));

/** Spec §7 generate-variants, and the batches that run variants as searches (Pro). */
export function variantRoutes(variants: Variants, billing: Billing, who: ReturnType<typeof identity>) {
  const pro = (userId: string | undefined) => billing.requirePro(userId);
  return new Elysia()
    .use(who)
    .post("/api/generate-variants", ({ caller, body }) => variants.generate(caller, parseInput(GenerateVariants, body)), {
      response: GeneratedVariants,
      detail: forTokens("variants", {
        tags: ["variants"],
        summary: "Write query variants, once per query",
        description:
          "Pro only (else 403 `Pro subscription required`). The first time for a query (any letter case), one connected model (VARIANTS_PROVIDER, or the first connected) writes 5 rephrasings a real person might type, each with a one-line reasoning, through its SDK's structured output, and the set is saved. " +
          "After that the saved set is answered as it stands, with the person's edits (`edited`), until `regenerate: true` writes a new one in its place. `executeSearches: true` also saves the set as a batch and starts it (`batchId`).",
        requestBody: jsonBody(GenerateVariants),
      }),
    })
    .get("/api/variants", async ({ owner, query }) => ({ set: await variants.current(await pro(owner.userId), parseInput(QueryParam, query).query) }), {
      response: CurrentVariants,
      detail: forTokens("variants", {
        tags: ["variants"],
        summary: "The saved variants of a query",
        description: "Pro only. `query` in any letter case; `{ set: null }` before any were written (POST /api/generate-variants writes them). Reading never writes variants.",
      }),
    })
    .put("/api/variants", async ({ owner, body }) => variants.edit(await pro(owner.userId), parseInput(SaveVariants, body)), {
      response: VariantSet,
      detail: forTokens("variants", {
        tags: ["variants"],
        summary: "Save edits to a query's variants",
        description:
          "Pro only. The whole list as the person has it now (edited, added, removed; a query may be blank while being typed); the set is then `edited`. 404 before variants were written for the query; 409 once the set has run as a batch (its queries are fixed: regenerate for a new set).",
        requestBody: jsonBody(SaveVariants),
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
