import * as v from "valibot";
import type { ApiClient } from "#src/client/api.ts";
import { Iterations, SearchQuery } from "#src/contract/search-request.ts";
import { isFinished, type VariantBatch } from "#src/contract/variants.ts";
import { visibleText } from "#src/core/display-text.ts";
import { action, defineCommand, Flag, parseOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { note, print, printJson, table } from "#cli/lib/output.ts";
import { startProgress, type Progress } from "#cli/lib/progress.ts";

const Options = v.object({ run: Flag, regenerate: Flag, iterations: v.optional(Iterations) });
const POLL_MS = 1000;

export const variants = defineCommand(
  "variants",
  "rephrasings of a query as people might type it (Pro): written once and kept (as edited on the web); --run searches them all",
)
  .argument("<query>", "the original query")
  .option("--regenerate", "write a new set in place of the saved one (edits made on the web are lost)")
  .option("--run", "run every variant as a search (a batch on the server) and wait for them")
  .option("-n, --iterations <n>", "with --run: iterations of each variant's search (5, 10, 25, 50 or 100)")
  .action(
    action<typeof Options, [string]>(Options, async ({ context, options, args: [rawQuery] }) => {
      const query = parseOptions(SearchQuery, rawQuery);
      const api = signedIn(context);
      const progress = startProgress(`Writing variants of "${query}"`, context);
      // With --run the server saves the set as a batch and starts it (executeSearches).
      const generated = await api.generateVariants({
        query,
        ...(options.regenerate ? { regenerate: true } : {}),
        ...(options.run ? { executeSearches: true, ...(options.iterations ? { iterations: options.iterations } : {}) } : {}),
      });
      const by = generated.generatedBy;
      progress.succeed(
        `${generated.variants.length} variants${by ? ` by ${visibleText(by.model)}${by.mode === "simulated" ? " (simulated)" : ""}` : ""}${generated.edited ? ", as you edited them" : ""}`,
      );
      if (!options.run) {
        if (context.json) return printJson(generated);
        print(
          table(
            ["#", "Variant", "Why"],
            generated.variants.map((variant, i) => [String(i + 1), visibleText(variant.query), visibleText(variant.reasoning)]),
          ),
        );
        return note(context.quiet, `Search them all: aisc variants "${query}" --run`);
      }
      if (!generated.batchId) throw new Error("the server started no batch for the variants");
      const batch = await waitForBatch(api, await api.getBatch(generated.batchId), startProgress("Running the variants", context));
      if (context.json) return printJson(batch);
      print(
        table(
          ["#", "Variant", "Status", "Search"],
          batch.items.map((item) => [
            String(item.position + 1),
            visibleText(item.query),
            item.error ? `${item.status}: ${visibleText(item.error)}` : item.status,
            item.searchId ?? "—",
          ]),
        ),
      );
      note(context.quiet, `Compare them: aisc compare "${query}"`);
    }),
  );

/** Polls the batch until every item has completed or failed. */
async function waitForBatch(api: ApiClient, batch: VariantBatch, progress: Progress): Promise<VariantBatch> {
  for (;;) {
    const finished = batch.items.filter((item) => isFinished(item.status));
    const failed = batch.items.filter((item) => item.status === "failed").length;
    const line = `Running ${batch.items.length} variant searches · ${finished.length}/${batch.items.length} done${failed ? ` (${failed} failed)` : ""}`;
    if (finished.length === batch.items.length) {
      progress.succeed(line);
      return batch;
    }
    progress.update(line);
    await Bun.sleep(POLL_MS);
    batch = await api.getBatch(batch.id);
  }
}
