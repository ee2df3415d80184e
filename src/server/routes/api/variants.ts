import { Elysia } from "elysia";
import {
  CreateBatch,
  CurrentVariants,
  GenerateVariants,
  GeneratedVariants,
  LatestBatch,
  QuestionSuggestions,
  QueryParam,
  SuggestQuestions,
  RunBatch,
  SaveVariants,
  VariantBatch,
  VariantSet,
} from "#src/contract/variants.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { lastValues } from "#src/server/http/query-string.ts";
import type { Variants } from "#src/server/services/variants/index.ts";
import * as v from "valibot";
import { forTokens } from "#src/server/http/token-access.ts";

const BatchId = v.object({ id: v.pipe(v.string(), v.uuid("Batch not found")) });

/** Spec §7 generate-variants, and the batches that run variants as searches (Pro). */
export function variantRoutes(variants: Variants, guards: Guards) {
  return (
    new Elysia()
      .use(guards)
      // Pro is read by the service once the body is valid: a free caller's bad input is a 400 here (ADR 034).
      .post("/api/generate-variants", ({ caller, body }) => variants.generate(caller, body), {
        body: GenerateVariants,
        parse: "json",
        response: GeneratedVariants,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "Write query variants, once per query",
          description:
            "Pro only (else 403 `Pro subscription required`). The first time for a query (any letter case), one connected model (VARIANTS_PROVIDER, or the first connected) writes 5 rephrasings a real person might type, each with a one-line reasoning, through its SDK's structured output, and the set is saved. " +
            "After that the saved set is answered as it stands, with the person's edits (`edited`), until `regenerate: true` writes a new one in its place. `executeSearches: true` also saves the set as a batch and starts it (`batchId`).",
        }),
      })
      .post("/api/question-suggestions", ({ caller, body }) => variants.suggestQuestions(caller, body), {
        body: SuggestQuestions,
        parse: "json",
        response: QuestionSuggestions,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "Suggest buyer questions for a tracker",
          description:
            "Pro only (else 403 `Pro subscription required`). The model that writes variants (VARIANTS_PROVIDER, or the first connected) writes up to 5 questions buyers in `category` would ask, " +
            "not naming `brand`, each with a one-line reasoning, leaving out any of `exclude` (the tracker's questions). Nothing is saved; `generatedBy.mode` says when the model is simulated.",
        }),
      })
      .get("/api/variants", async ({ userId, query }) => ({ set: await variants.current(userId, query.query) }), {
        pro: true,
        transform: lastValues,
        query: QueryParam,
        response: CurrentVariants,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "The saved variants of a query",
          description:
            "Pro only. `query` in any letter case; `{ set: null }` before any were written (POST /api/generate-variants writes them). Reading never writes variants.",
        }),
      })
      .put("/api/variants", ({ userId, body }) => variants.edit(userId, body), {
        pro: true,
        body: SaveVariants,
        parse: "json",
        response: VariantSet,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "Save edits to a query's variants",
          description:
            "Pro only. The whole list as the person has it now (edited, added, removed; a query may be blank while being typed); the set is then `edited`. 404 before variants were written for the query; 409 once the set has run as a batch (its queries are fixed: regenerate for a new set).",
        }),
      })
      .post("/api/variant-batches", ({ userId, body }) => variants.createBatch(userId, body), {
        pro: true,
        body: CreateBatch,
        parse: "json",
        response: VariantBatch,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "Save variants as a batch",
          description: "Pro only. The variants as kept, edited or added; nothing runs until POST …/run.",
        }),
      })
      .get("/api/variant-batches", async ({ userId, query }) => ({ batch: await variants.latest(userId, query.query) }), {
        pro: true,
        transform: lastValues,
        query: QueryParam,
        response: LatestBatch,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "The latest batch of a query",
          description: "Pro only. `query` in any letter case; `{ batch: null }` when there is none.",
        }),
      })
      .get("/api/variant-batches/:id", ({ userId, params }) => variants.batch(userId, params.id), {
        pro: true,
        params: BatchId,
        response: VariantBatch,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "One batch",
          description: "Pro only; the caller's own batches (others 404). Each item's status and, once run, its search id.",
        }),
      })
      .post("/api/variant-batches/:id/run", ({ userId, params, body }) => variants.run(userId, params.id, body.positions), {
        pro: true,
        params: BatchId,
        // The body is optional: without one, every item not yet completed runs.
        body: v.nullish(RunBatch, {}),
        parse: "json",
        response: VariantBatch,
        detail: forTokens("variants", {
          tags: ["variants"],
          summary: "Run a batch's searches",
          description:
            "Pro only. Queues the given `positions` (all not yet completed when absent) on the server's job queue, two at a time; they run even if the page closes, and never cancel each other or the dashboard's search.",
        }),
      })
  );
}
