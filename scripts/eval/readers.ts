import type { Company, Product } from "#src/contract/search-result.ts";
import * as extract from "#src/core/extraction/extract.ts";

type Read = { products: Product[]; companies: Company[] };
/** The extractor's JSON read by the product's rules, grounded in the answer (issue 23 plan, extract.ts). */
export type ReadExtraction = (raw: unknown, answerText: string, opts: { cut: boolean }) => Read & { ungrounded: number };
/** The deterministic reading of the prose, used when the extraction call fails (issue 23 plan, prose.ts). */
export type ReadProse = (answerText: string, opts: { cut: boolean }) => Read;

// A variable, so the type checker does not require the module before it exists.
const PROSE_MODULE = "#src/core/extraction/prose.ts";

/**
 * The core readers the eval scores, looked up at run time: while issue 23's core part is written
 * in parallel they may be missing, and the eval then says so instead of failing to start.
 */
export async function coreReaders(): Promise<{ readExtraction?: ReadExtraction; readProse?: ReadProse }> {
  const readExtraction = (extract as Record<string, unknown>).readExtraction;
  const prose = (await import(PROSE_MODULE).catch(() => ({}))) as Record<string, unknown>;
  return {
    ...(typeof readExtraction === "function" ? { readExtraction: readExtraction as ReadExtraction } : {}),
    ...(typeof prose.readProse === "function" ? { readProse: prose.readProse as ReadProse } : {}),
  };
}
