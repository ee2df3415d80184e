import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, GitCompareArrows, LoaderCircle, Play, Plus, RefreshCw, WandSparkles } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import * as v from "valibot";
import { Link, useSearchParams } from "wouter";
import { providerCatalogue } from "#src/contract/providers.ts";
import { QUERY_MAX_LENGTH } from "#src/contract/constants.ts";
import { SearchQuery } from "#src/contract/search-request.ts";
import { isRunnable, MAX_VARIANTS, type GeneratedBy as Writer, type VariantBatch } from "#src/contract/variants.ts";
import { nameKey } from "#src/core/names.ts";
import { SimulatedBadge } from "#web/components/results/shared.tsx";
import { useProGate } from "#web/hooks/use-pro-gate.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { useVariantDrafts, type Draft, type SaveState } from "#web/hooks/use-variant-drafts.ts";
import { VariantCard, type VariantView } from "#web/components/workbench/variant-card.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { formatDate } from "#src/core/dates.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { batchProgress, compareHref, dashboardHref, errorText, parseIterations, workbenchMessages } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, Card, CardContent, Input, Progress, queries, Skeleton, toast } from "#web/shared-chunk.ts";

/** The saved variants (and the batch they ran as) arrive with the page, so a reload shows them at once, edits included. */
export async function prefetch({ queryClient, api: serverApi, url }: PrefetchContext) {
  const query = url.searchParams.get("query")?.trim();
  if (!query) return;
  const pro = await queryClient.ensureQueryData(queries.proStatus(serverApi));
  if (!pro.isPro) return;
  const { set } = await queryClient.fetchQuery(workbenchQueries.variants(serverApi, query));
  if (set?.batchId) await queryClient.prefetchQuery(workbenchQueries.batch(serverApi, set.batchId));
}

/** Spec §2 /variants?query=..&iterations=..: Pro only; the query's variants, run and compared. */
export default function VariantsPage() {
  const [params] = useSearchParams();
  const query = params.get("query")?.trim() ?? "";
  const iterations = parseIterations(params.get("iterations"));
  const ready = useProGate(query ? null : workbenchMessages.missingQuery);

  return (
    <main className="container mx-auto w-full max-w-6xl flex-1 space-y-6 px-4 py-8">
      <title>Query Variants · AI Search Comparison</title>
      <header className="space-y-3">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href={query ? dashboardHref(query) : "/"}>
            <ArrowLeft aria-hidden="true" />
            Back to Dashboard
          </Link>
        </Button>
        <h1 className="text-2xl font-bold tracking-tight">Query Variants</h1>
        {query ? (
          <div className="rounded-xl border bg-card p-4 shadow-sm">
            <p className="text-sm text-muted-foreground">Original query</p>
            <p className="text-lg font-semibold break-words" data-testid="original-query">
              {query}
            </p>
          </div>
        ) : null}
      </header>
      {ready ? <Workbench query={query} iterations={iterations} /> : <Skeleton className="h-64 w-full" aria-label="Loading" />}
    </main>
  );
}

/**
 * The variants of one query: the caller's saved set (written by the model on the first visit,
 * spec §4, and kept with the person's edits until they regenerate it). Until it runs
 * the set can be edited, added to and trimmed, each change saved a moment later; running saves it
 * as a batch on the server, whose items the page then polls every 1.5 s while any is queued or running.
 */
function Workbench({ query, iterations }: { query: string; iterations: number }) {
  const queryClient = useQueryClient();
  const key = workbenchQueries.variants(api, query).queryKey;
  const current = useQuery(workbenchQueries.variants(api, query));
  const set = current.data?.set ?? null;
  const drafts = useVariantDrafts(query, set);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const generate = useMutation({
    mutationFn: (regenerate: boolean) => api.generateVariants({ query, iterations, ...(regenerate ? { regenerate } : {}) }),
    onSuccess: (written) => {
      queryClient.setQueryData(key, { set: written });
      setChecked(false);
      setConfirming(false);
    },
    onError: (error) => toast({ variant: "destructive", title: "Error generating variants", description: errorText(error) }),
  });
  const { mutate: write, isIdle: notAsked } = generate;
  // Spec §4: generated automatically once; from then on the saved set is shown.
  useEffect(() => {
    if (current.isSuccess && current.data.set === null && notAsked) write(false);
  }, [current.isSuccess, current.data, notAsked, write]);

  const batchId = set?.batchId ?? null;
  const batch = useQuery({ ...workbenchQueries.batch(api, batchId ?? ""), enabled: batchId !== null }).data;
  const list = drafts.list;
  const views: VariantView[] = batch
    ? batch.items.map((item) => ({ key: `b${item.position}`, query: item.query, reasoning: item.reasoning, status: item.status, error: item.error }))
    : withProblems(list, checked);
  const progress = batchProgress(batch?.items ?? []);
  const completed = batch?.items.filter((item) => item.status === "completed").map((item) => item.query) ?? [];
  const runnable = batch ? batch.items.some((item) => isRunnable(item.status)) : list.length > 0;

  /** Saves the list as a batch the first time, then queues the given items (all not completed when none). */
  async function run(positions?: number[]) {
    let ran: VariantBatch | undefined = batch;
    if (!ran) {
      setChecked(true);
      if (withProblems(list, true).some((view) => view.problem)) return;
    }
    setBusy(true);
    try {
      if (!ran) {
        await drafts.flush();
        ran = await api.createBatch({
          query,
          iterations,
          variants: list.map(({ query: text, reasoning, own }) => ({ query: text.trim(), ...(reasoning ? { reasoning } : {}), ...(own ? { own } : {}) })),
        });
        const batchId = ran.id;
        queryClient.setQueryData(workbenchQueries.batch(api, batchId).queryKey, ran);
        // The server linked the set to the batch: so does the page, at once.
        queryClient.setQueryData(key, (old) => (old?.set ? { set: { ...old.set, batchId } } : old));
      }
      queryClient.setQueryData(workbenchQueries.batch(api, ran.id).queryKey, await api.runBatch(ran.id, positions));
    } catch (error) {
      toast({ variant: "destructive", title: "Error running search", description: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  /** New variants in place of these; edits are lost, so an edited set asks first. */
  function regenerate(confirmed = false) {
    if (set?.edited && !confirmed) return setConfirming(true);
    drafts.discard();
    generate.mutate(true);
  }

  if (!set || (set.batchId && !batch)) {
    if (!set && generate.isError) return <GenerateFailed error={generate.error} onRetry={() => write(false)} />;
    return (
      <div role="status" className="flex items-center gap-2 rounded-xl border bg-card p-6 text-muted-foreground shadow-sm">
        <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
        {current.isSuccess && !set ? "Generating variants…" : "Loading variants…"}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <section aria-label="Variants overview" className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
        <div className="flex flex-col gap-1 text-sm text-muted-foreground">
          {batch ? (
            <p>{`Saved ${formatDate(batch.createdAt)} · ${iterationsText(batch.iterations)} per search`}</p>
          ) : (
            <>
              {set.generatedBy ? <GeneratedBy by={set.generatedBy} /> : null}
              <p>{`${iterationsText(iterations)} per search. Edit the variants or add your own before running them: your changes are saved.`}</p>
              <SaveNote state={drafts.state} edited={set.edited} />
            </>
          )}
        </div>
        {batch ? (
          <div className="space-y-1.5">
            <div className="flex justify-between text-sm">
              <span className="font-medium">Progress</span>
              <span
                className="text-muted-foreground tabular-nums"
                data-testid="variants-progress"
              >{`${progress.completed} of ${progress.total} completed`}</span>
            </div>
            <Progress
              value={progress.completed}
              max={Math.max(progress.total, 1)}
              aria-label="Searches completed"
              aria-valuetext={`${progress.completed} of ${progress.total} completed`}
            />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="button" disabled={busy || generate.isPending || !runnable} onClick={() => void run()}>
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Play aria-hidden="true" />}
            Run All Searches
          </Button>
          {completed.length > 0 ? (
            <Button asChild variant="outline">
              <Link href={compareHref(query, completed)}>
                <GitCompareArrows aria-hidden="true" />
                {`Compare All Results (${completed.length})`}
              </Link>
            </Button>
          ) : null}
          {progress.active ? null : (
            <Button type="button" variant="ghost" disabled={busy || generate.isPending} onClick={() => regenerate()}>
              {generate.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <WandSparkles aria-hidden="true" />}
              Regenerate
            </Button>
          )}
        </div>
      </section>

      <section aria-label="Variants" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {views.map((view, index) => (
          <VariantCard
            key={view.key}
            n={index + 1}
            variant={view}
            busy={busy}
            onRun={() => void run(batch ? [batch.items[index]?.position ?? index] : [index])}
            {...(batch
              ? {}
              : {
                  onEdit: (text: string) => drafts.edit(list.map((draft, i) => (i === index ? { ...draft, query: text } : draft))),
                  onDone: () => void drafts.flush(),
                  ...(list.length > 1 ? { onRemove: () => drafts.edit(list.filter((_, i) => i !== index)) } : {}),
                })}
          />
        ))}
      </section>

      {batch ? (
        <p className="text-sm text-muted-foreground">
          These variants have run as searches: reopening the page shows how they went. Their queries can no longer be changed; regenerate for a new set.
        </p>
      ) : list.length < MAX_VARIANTS ? (
        <AddVariant existing={list} onAdd={(text) => drafts.edit([...list, { key: `own-${Date.now()}`, query: text, reasoning: "", own: true }])} />
      ) : null}

      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Regenerate the variants?</DialogTitle>
            <DialogDescription>You edited these variants. New ones replace them, and your edits are lost.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Keep My Variants</Button>
            </DialogClose>
            <Button variant="destructive" disabled={generate.isPending} onClick={() => regenerate(true)}>
              {generate.isPending ? "Regenerating..." : "Regenerate"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** Where the person's edits stand: each change is saved a moment after it is made. */
function SaveNote({ state, edited }: { state: SaveState; edited: boolean }) {
  const text =
    state === "saving"
      ? "Saving your changes…"
      : state === "failed"
        ? "Your last change could not be saved: edit again to retry."
        : state === "saved" || edited
          ? "Your changes are saved."
          : "";
  return (
    <p role="status" data-testid="variants-save-state" className={state === "failed" ? "text-destructive" : undefined}>
      {text}
    </p>
  );
}

function GenerateFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>Error generating variants</AlertTitle>
      <AlertDescription>
        <p>{errorText(error)}</p>
        <Button type="button" variant="outline" size="sm" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}

function GeneratedBy({ by }: { by: Writer }) {
  return (
    <p className="flex flex-wrap items-center gap-2" data-testid="generated-by">
      {`Written by ${providerCatalogue[by.provider].name} (${by.model})`}
      {by.mode === "simulated" ? <SimulatedBadge /> : null}
    </p>
  );
}

/** A query of the person's own, added to the draft. */
function AddVariant({ existing, onAdd }: { existing: Draft[]; onAdd: (query: string) => void }) {
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    const issue = queryProblem(query) ?? (existing.some((draft) => nameKey(draft.query) === nameKey(query)) ? "This variant is already in the list" : null);
    setProblem(issue);
    if (issue) return;
    onAdd(query);
    setText("");
  };
  return (
    <Card className="gap-3">
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1 space-y-1">
            <label htmlFor={inputId} className="text-sm font-medium">
              Add your own variant
            </label>
            <Input
              id={inputId}
              value={text}
              onChange={(event) => setText(event.target.value)}
              maxLength={QUERY_MAX_LENGTH}
              placeholder="e.g. a question your customers ask"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? errorId : undefined}
            />
            {problem ? (
              <p id={errorId} className="text-sm text-destructive">
                {problem}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="outline" className="sm:mt-6">
            <Plus aria-hidden="true" />
            Add Variant
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** What the contract says of a query (blank, too long), in its words; null when it may run. */
function queryProblem(query: string): string | null {
  const parsed = v.safeParse(SearchQuery, query);
  return parsed.success ? null : parsed.issues[0].message;
}

/** The list as cards; once a run was tried, each with what stops it from being run. */
function withProblems(list: Draft[], checked: boolean): VariantView[] {
  return list.map((draft, index) => {
    const text = draft.query.trim();
    const repeated = list.findIndex((other) => nameKey(other.query) === nameKey(text)) !== index;
    const problem = !checked ? undefined : (queryProblem(text) ?? (repeated ? "This variant repeats an earlier one" : undefined));
    return { key: draft.key, query: draft.query, reasoning: draft.reasoning, own: draft.own, problem };
  });
}

function iterationsText(n: number): string {
  return n === 1 ? "1 iteration" : `${n} iterations`;
}
