import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { variantBatchItems, variantBatches } from "#db/schema.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { SearchRequest } from "#src/contract/search-request.ts";
import {
  isActive,
  isRunnable,
  type GeneratedBy,
  type QuestionSuggestions,
  type SavedVariant,
  type SuggestQuestions,
  type VariantBatch,
  type VariantSet,
} from "#src/contract/variants.ts";
import { parseVariants, questionsRequest, variantsRequest } from "#src/core/variants.ts";
import type { StructuredRequest } from "#src/core/structured.ts";
import type { Billing } from "../billing/index.ts";
import { DomainError } from "../errors.ts";
import type { Caller } from "../owner.ts";
import { withRetry, type RetryPolicy } from "../providers/retry.ts";
import type { JobQueue } from "../job-queue.ts";
import type { SearchService } from "../search/index.ts";
import type { Providers } from "../search/run.ts";
import { createVariantSets } from "./sets.ts";

const QUEUE = "variant-search";
/** Searches of one batch in flight at once, per app instance: a batch must not crowd out the dashboard. */
const BATCH_CONCURRENCY = 2;

export type VariantsDeps = {
  db: Db;
  providers: Providers;
  billing: Billing;
  search: SearchService;
  queue: JobQueue;
  /** Which provider writes variants (VARIANTS_PROVIDER); else the first connected one. */
  generator?: ProviderId;
  retry?: RetryPolicy;
};

type ItemJob = { batchId: string; position: number };

/**
 * Pro's query variants (spec §2, §7): rephrasings written by one model through its SDK's
 * structured output, and batches that run them as searches on the job queue. A batch is saved, so
 * it outlives the page and the server; its items never cancel each other or the dashboard.
 * A `userId` given here is Pro: the routes declare it (`pro: true`, http/guards.ts), `generate`
 * checks it once, and a queued item checks again when it runs.
 */
export function createVariants({ db, providers, billing, search, queue, generator, retry }: VariantsDeps) {
  queue.work<ItemJob>(QUEUE, { concurrency: BATCH_CONCURRENCY }, runItem);
  const sets = createVariantSets(db);

  function writer() {
    const id = generator && providers[generator] ? generator : providerIds.find((candidate) => providers[candidate]);
    const adapter = id ? providers[id] : null;
    if (!id || !adapter) throw new DomainError("PROVIDERS_FAILED", "No provider is connected to generate variants");
    return { id, adapter };
  }

  /** Five rephrasings of the query by the writer model, and which model that was. */
  function write(query: string): Promise<{ variants: SavedVariant[]; generatedBy: GeneratedBy }> {
    return ask(variantsRequest(query), [query], "variants");
  }

  /** The writer model's answer to a request in the variants' shape, without any of `known` (any letter case). */
  async function ask(request: StructuredRequest, known: readonly string[], what: string): Promise<{ variants: SavedVariant[]; generatedBy: GeneratedBy }> {
    const { id, adapter } = writer();
    let answer: unknown;
    try {
      answer = (await withRetry((signal) => adapter.structured(request, signal), new AbortController().signal, retry)).value;
    } catch (error) {
      throw new DomainError("PROVIDERS_FAILED", `The model could not write ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const taken = new Set(known.map((query) => query.trim().toLowerCase()));
    const variants = parseVariants(answer, known[0] ?? "").filter((variant) => !taken.has(variant.query.toLowerCase()));
    if (variants.length === 0) throw new DomainError("PROVIDERS_FAILED", `The model returned no usable ${what}`);
    return { variants, generatedBy: { provider: id, model: adapter.model, mode: adapter.mode } };
  }

  async function load(userId: string, batchId: string): Promise<VariantBatch> {
    const [batch] = await db
      .select()
      .from(variantBatches)
      .where(and(eq(variantBatches.id, batchId), eq(variantBatches.userId, userId)))
      .limit(1);
    if (!batch) throw new DomainError("NOT_FOUND", "Batch not found");
    const items = await db.select().from(variantBatchItems).where(eq(variantBatchItems.batchId, batchId)).orderBy(asc(variantBatchItems.position));
    return {
      id: batch.id,
      query: batch.query,
      iterations: batch.iterations,
      createdAt: batch.createdAt.toISOString(),
      items: items.map((item) => ({
        position: item.position,
        query: item.query,
        reasoning: item.reasoning,
        status: item.status,
        searchId: item.searchId,
        error: item.error,
      })),
    };
  }

  const service = {
    /** Which provider writes the variants here (shown on the page). */
    generator: () => {
      const { id, adapter } = writer();
      return { provider: id, model: adapter.model, mode: adapter.mode };
    },

    /**
     * Spec §7 generate-variants: the caller's saved set of the query, written by the model the
     * first time (or again with `regenerate`, replacing it); with `executeSearches` it also runs.
     */
    async generate(caller: Caller, input: { query: string; iterations: number; executeSearches: boolean; regenerate: boolean }): Promise<VariantSet> {
      const userId = await billing.requirePro(caller.owner.userId);
      const saved = input.regenerate ? null : await service.current(userId, input.query);
      const set = saved ?? (await (input.regenerate ? sets.replace : sets.keep)(userId, input.query, await write(input.query)));
      if (!input.executeSearches) return set;
      const runnable = set.variants.filter((variant) => variant.query.trim() !== "");
      const batch = await service.createBatch(userId, { query: input.query, iterations: input.iterations, variants: runnable });
      await service.run(userId, batch.id);
      return { ...set, batchId: batch.id };
    },

    /** Buyer questions for a tracker, from a category and the brand, by the variants' model (Pro); nothing is saved. */
    async suggestQuestions(caller: Caller, input: SuggestQuestions): Promise<QuestionSuggestions> {
      await billing.requirePro(caller.owner.userId);
      const { variants, generatedBy } = await ask(questionsRequest(input.category, input.brand), input.exclude, "questions");
      return { suggestions: variants.map(({ query, reasoning }) => ({ query, reasoning })), generatedBy };
    },

    /**
     * The caller's current variants of a query: the saved set; for a query whose variants ran as a
     * batch before sets were kept, that batch's; else null.
     */
    async current(userId: string, query: string): Promise<VariantSet | null> {
      const set = await sets.current(userId, query);
      if (set) return set;
      const batch = await service.latest(userId, query);
      if (!batch) return null;
      return {
        query: batch.query,
        variants: batch.items.map((item) => ({ query: item.query, reasoning: item.reasoning ?? "" })),
        edited: false,
        batchId: batch.id,
        createdAt: batch.createdAt,
        updatedAt: batch.createdAt,
      };
    },

    /** The person's edits to the saved set (a blank or repeated query is kept until the set runs). */
    edit: (userId: string, input: { query: string; variants: SavedVariant[] }) => sets.edit(userId, input.query, input.variants),

    /** Saves the variants as the person kept, edited or added them, as the query's current set; nothing runs yet. */
    async createBatch(
      userId: string,
      input: { query: string; iterations: number; variants: Array<{ query: string; reasoning?: string; own?: boolean }> },
    ): Promise<VariantBatch> {
      const [batch] = await db.insert(variantBatches).values({ userId, query: input.query, iterations: input.iterations }).returning({ id: variantBatches.id });
      if (!batch) throw new Error("could not save the batch");
      await db
        .insert(variantBatchItems)
        .values(input.variants.map((variant, position) => ({ batchId: batch.id, position, query: variant.query, reasoning: variant.reasoning || null })));
      await sets.ranAs(
        userId,
        input.query,
        batch.id,
        input.variants.map(({ query, reasoning, own }) => ({ query, reasoning: reasoning ?? "", ...(own ? { own } : {}) })),
      );
      return load(userId, batch.id);
    },

    /** Queues the given items (all not yet completed when none are named); each runs once at a time. */
    async run(userId: string, batchId: string, positions?: number[]): Promise<VariantBatch> {
      const batch = await load(userId, batchId);
      const chosen = batch.items.filter((item) => (positions ? positions.includes(item.position) : isRunnable(item.status)) && !isActive(item.status));
      if (positions?.some((position) => !batch.items.some((item) => item.position === position)))
        throw new DomainError("INVALID_INPUT", "No such variant in this batch");
      if (chosen.length === 0) return batch;
      await db
        .update(variantBatchItems)
        .set({ status: "queued", error: null, updatedAt: sql`now()` })
        .where(
          and(
            eq(variantBatchItems.batchId, batchId),
            inArray(
              variantBatchItems.position,
              chosen.map((item) => item.position),
            ),
          ),
        );
      for (const item of chosen)
        await queue.send<ItemJob>(QUEUE, { batchId, position: item.position }, { singletonKey: `${batchId}/${item.position}`, retryLimit: 0 });
      return load(userId, batchId);
    },

    batch: (userId: string, batchId: string) => load(userId, batchId),

    /** The caller's latest batch for a query (any letter case), so a reopened page shows what ran. */
    async latest(userId: string, query: string): Promise<VariantBatch | null> {
      const [row] = await db
        .select({ id: variantBatches.id })
        .from(variantBatches)
        .where(and(eq(variantBatches.userId, userId), eq(sql`lower(${variantBatches.query})`, query.trim().toLowerCase())))
        .orderBy(desc(variantBatches.createdAt))
        .limit(1);
      return row ? load(userId, row.id) : null;
    },
  };
  return service;

  /** One queued variant: its search, as its owner (Pro is checked again), in a slot of its own. */
  async function runItem({ batchId, position }: ItemJob): Promise<void> {
    const [row] = await db
      .select({ userId: variantBatches.userId, iterations: variantBatches.iterations, query: variantBatchItems.query, status: variantBatchItems.status })
      .from(variantBatchItems)
      .innerJoin(variantBatches, eq(variantBatches.id, variantBatchItems.batchId))
      .where(and(eq(variantBatchItems.batchId, batchId), eq(variantBatchItems.position, position)))
      .limit(1);
    if (!row || row.status === "completed") return;
    const item = and(eq(variantBatchItems.batchId, batchId), eq(variantBatchItems.position, position));
    await db.update(variantBatchItems).set({ status: "running", updatedAt: sql`now()` }).where(item);
    try {
      // Queued while Pro, run later: a lapsed subscription stops the batch, it never spends free searches.
      await billing.requirePro(row.userId);
      const request = v.parse(SearchRequest, { query: row.query, iterations: row.iterations });
      const { result } = await search.search({ owner: { userId: row.userId, anonymousId: `batch:${batchId}` }, ip: "batch" }, request, {
        slot: `batch:${batchId}:${position}`,
      });
      await db.update(variantBatchItems).set({ status: "completed", searchId: result.id, error: null, updatedAt: sql`now()` }).where(item);
    } catch (error) {
      // A failed search is an answer, shown on its card with 'Run Search' to try again; not retried.
      const message = error instanceof Error ? error.message : String(error);
      await db
        .update(variantBatchItems)
        .set({ status: "failed", error: message.slice(0, 500), updatedAt: sql`now()` })
        .where(item);
    }
  }
}

export type Variants = ReturnType<typeof createVariants>;
