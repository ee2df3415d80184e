import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { SavedVariant, VariantSet } from "#src/contract/variants.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { api } from "#web/shared-chunk.ts";

/** A variant as the page edits it; `key` keeps its card (and focus) while the list changes. */
export type Draft = { key: string; query: string; reasoning: string; own: boolean };

/** How the person's edits stand on the server. */
export type SaveState = "idle" | "saving" | "saved" | "failed";

/** Edits are saved this long after the last keystroke (and at once on blur, on Run, on leaving). */
export const SAVE_DELAY_MS = 500;

/**
 * The saved set of a query as the person edits it: the list shows each change at once, and is
 * saved to the server (PUT /api/variants) a moment after typing stops, so a reload, Back or a
 * second tab shows the same set with its edits. The query cache gets the saved set,
 * so a page shown again from it has the edits too.
 */
export function useVariantDrafts(query: string, set: VariantSet | null) {
  const queryClient = useQueryClient();
  // The edits belong to one set (its createdAt): a regenerated set starts from what the model wrote.
  const of = set?.createdAt ?? "";
  const [draft, setDraft] = useState<{ of: string; list: Draft[] } | null>(null);
  const [state, setState] = useState<SaveState>("idle");
  const pending = useRef<{ list: Draft[]; timer: ReturnType<typeof setTimeout> } | null>(null);
  // Only the newest save's answer goes into the cache: an older one may arrive after it.
  const sent = useRef(0);

  const list = draft && draft.of === of ? draft.list : set ? fromSet(set) : [];

  const save = useCallback(
    async (next: Draft[]) => {
      const n = ++sent.current;
      setState("saving");
      try {
        const saved = await api.saveVariants({ query, variants: next.map(toSaved) });
        if (n !== sent.current) return;
        queryClient.setQueryData(workbenchQueries.variants(api, query).queryKey, { set: saved });
        setState("saved");
      } catch {
        if (n === sent.current) setState("failed");
      }
    },
    [query, queryClient],
  );

  /** Saves a pending edit now (blur, Run, leaving the page). */
  const flush = useCallback(async () => {
    const waiting = pending.current;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending.current = null;
    await save(waiting.list);
  }, [save]);

  /** Drops a pending edit (the set is being replaced). */
  const discard = useCallback(() => {
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = null;
    sent.current++;
    setState("idle");
  }, []);

  const edit = useCallback(
    (next: Draft[]) => {
      setDraft({ of, list: next });
      setState("saving");
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = { list: next, timer: setTimeout(() => void flush(), SAVE_DELAY_MS) };
    },
    [of, flush],
  );

  // Leaving the page (a link, Back) saves what was still waiting.
  useEffect(() => () => void flush(), [flush]);

  return { list, edit, flush, discard, state };
}

function fromSet(set: VariantSet): Draft[] {
  return set.variants.map((variant, i) => ({ key: `${set.createdAt}-${i}`, query: variant.query, reasoning: variant.reasoning, own: variant.own ?? false }));
}

function toSaved({ query, reasoning, own }: Draft): SavedVariant {
  return { query, reasoning, ...(own ? { own } : {}) };
}
