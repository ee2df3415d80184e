import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, GitCompareArrows, LoaderCircle, Play, Plus, RefreshCw, WandSparkles } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "wouter";
import { providerCatalogue } from "#src/contract/providers.ts";
import type { GeneratedVariants, VariantBatch } from "#src/contract/variants.ts";
import { nameKey } from "#src/core/names.ts";
import { SimulatedBadge } from "#web/components/results/shared.tsx";
import { useProGate } from "#web/components/workbench/pro-gate.ts";
import { VariantCard, type VariantView } from "#web/components/workbench/variant-card.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { formatDate } from "#src/core/dates.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { batchProgress, compareHref, dashboardHref, errorText, parseIterations, workbenchMessages } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, Card, CardContent, Input, Progress, queries, Skeleton, toast } from "#web/kit.ts";

/** A saved batch arrives with the page, so a reload shows at once what has finished. */
export async function prefetch({ queryClient, api: serverApi, url }: PrefetchContext) {
  const query = url.searchParams.get("query")?.trim();
  if (!query) return;
  const pro = await queryClient.ensureQueryData(queries.proStatus(serverApi));
  if (pro.isPro) await queryClient.prefetchQuery(workbenchQueries.latestBatch(serverApi, query));
}

/** The batch API's limit (CreateBatch). */
const MAX_VARIANTS = 20;

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

type Draft = { key: string; query: string; reasoning?: string; own?: boolean };

const fromGenerated = (generated: GeneratedVariants, round: number): Draft[] => generated.variants.map((variant, i) => ({ key: `g${round}-${i}`, query: variant.query, reasoning: variant.reasoning }));

/**
 * The variants of one query. A saved batch of it (latestBatch) is shown as it stands; otherwise
 * the variants are written once for this visit (a query keyed by the query and a round that goes
 * up only on "Write new variants"), and stay a draft the person can edit, add to and trim until
 * the first search runs. Running saves the list as a batch on the server, whose items the page
 * then polls every 1.5 s while any is queued or running.
 */
function Workbench({ query, iterations }: { query: string; iterations: number }) {
  const queryClient = useQueryClient();
  const latest = useQuery(workbenchQueries.latestBatch(api, query));
  // 0: the page as opened (a saved batch wins); each "Write new variants" starts a new round.
  const [round, setRound] = useState(0);
  const [createdId, setCreatedId] = useState<string | null>(null);
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);

  const saved = round === 0 ? latest.data?.batch : undefined;
  const batchId = createdId ?? saved?.id ?? null;
  const needsVariants = batchId === null && (round > 0 || latest.isSuccess || latest.isError);
  const generated = useQuery({ ...workbenchQueries.generated(api, query, iterations, round), enabled: needsVariants });
  const batch = useQuery({ ...workbenchQueries.batch(api, batchId ?? ""), enabled: batchId !== null, ...(saved && saved.id === batchId ? { initialData: saved } : {}) }).data;

  useEffect(() => {
    if (generated.error) toast({ variant: "destructive", title: "Error generating variants", description: errorText(generated.error) });
  }, [generated.error]);

  const list = drafts ?? (generated.data ? fromGenerated(generated.data, round) : []);
  const views: VariantView[] = batch ? batch.items.map((item) => ({ key: `b${item.position}`, query: item.query, reasoning: item.reasoning, status: item.status, error: item.error })) : withProblems(list, checked);
  const progress = batchProgress(batch?.items ?? []);
  const completed = batch?.items.filter((item) => item.status === "completed").map((item) => item.query) ?? [];
  const runnable = batch ? batch.items.some((item) => item.status === "pending" || item.status === "failed") : list.length > 0;

  const edit = (next: Draft[]) => setDrafts(next);

  /** Saves the draft as a batch the first time, then queues the given items (all not completed when none). */
  async function run(positions?: number[]) {
    let current: VariantBatch | undefined = batch;
    if (!current) {
      setChecked(true);
      if (withProblems(list, true).some((view) => view.problem)) return;
    }
    setBusy(true);
    try {
      if (!current) {
        current = await api.createBatch({ query, iterations, variants: list.map(({ query: text, reasoning }) => ({ query: text.trim(), ...(reasoning ? { reasoning } : {}) })) });
        queryClient.setQueryData(workbenchQueries.batch(api, current.id).queryKey, current);
        queryClient.setQueryData(workbenchQueries.latestBatch(api, query).queryKey, { batch: current });
        setCreatedId(current.id);
      }
      queryClient.setQueryData(workbenchQueries.batch(api, current.id).queryKey, await api.runBatch(current.id, positions));
    } catch (error) {
      toast({ variant: "destructive", title: "Error running search", description: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  function writeNew() {
    setRound((r) => r + 1);
    setCreatedId(null);
    setDrafts(null);
    setChecked(false);
  }

  if (!batch && (batchId !== null || !needsVariants || generated.isPending)) {
    return (
      <div role="status" className="flex items-center gap-2 rounded-xl border bg-card p-6 text-muted-foreground shadow-sm">
        <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
        {batchId !== null || !needsVariants ? "Loading variants…" : "Generating variants…"}
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
              {generated.data ? <GeneratedBy by={generated.data.generatedBy} /> : null}
              <p>{`${iterationsText(iterations)} per search. Edit the variants or add your own before running them.`}</p>
            </>
          )}
        </div>
        {batch ? (
          <div className="space-y-1.5">
            <div className="flex justify-between text-sm">
              <span className="font-medium">Progress</span>
              <span className="text-muted-foreground tabular-nums" data-testid="variants-progress">{`${progress.completed} of ${progress.total} completed`}</span>
            </div>
            <Progress value={progress.completed} max={Math.max(progress.total, 1)} aria-label="Searches completed" aria-valuetext={`${progress.completed} of ${progress.total} completed`} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="button" disabled={busy || !runnable} onClick={() => void run()}>
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
          {batch && !progress.active ? (
            <Button type="button" variant="ghost" onClick={writeNew}>
              <WandSparkles aria-hidden="true" />
              Write new variants
            </Button>
          ) : null}
        </div>
      </section>

      {generated.isError && !batch ? (
        <Alert variant="destructive">
          <AlertTitle>Error generating variants</AlertTitle>
          <AlertDescription>
            <p>{errorText(generated.error)}</p>
            <Button type="button" variant="outline" size="sm" onClick={() => void generated.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}

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
                  onEdit: (text: string) => edit(list.map((draft, i) => (i === index ? { ...draft, query: text } : draft))),
                  ...(list.length > 1 ? { onRemove: () => edit(list.filter((_, i) => i !== index)) } : {}),
                })}
          />
        ))}
      </section>

      {batch ? (
        <p className="text-sm text-muted-foreground">This set of variants is saved: reopening the page shows how its searches went. Its queries can no longer be changed; write new variants for another set.</p>
      ) : list.length < MAX_VARIANTS ? (
        <AddVariant existing={list} onAdd={(text) => edit([...list, { key: `own-${Date.now()}`, query: text, own: true }])} />
      ) : null}
    </div>
  );
}

function GeneratedBy({ by }: { by: GeneratedVariants["generatedBy"] }) {
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
    const issue = query === "" ? "Search query is required" : existing.some((draft) => nameKey(draft.query) === nameKey(query)) ? "This variant is already in the list" : null;
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
            <Input id={inputId} value={text} onChange={(event) => setText(event.target.value)} maxLength={500} placeholder="e.g. a question your customers ask" aria-invalid={problem ? true : undefined} aria-describedby={problem ? errorId : undefined} />
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

/** The drafts as cards; once a run was tried, each with what stops it from being saved. */
function withProblems(list: Draft[], checked: boolean): VariantView[] {
  return list.map((draft, index) => {
    const text = draft.query.trim();
    const repeated = list.findIndex((other) => nameKey(other.query) === nameKey(text)) !== index;
    const problem = !checked ? undefined : text === "" ? "Search query is required" : repeated ? "This variant repeats an earlier one" : undefined;
    return { key: draft.key, query: draft.query, reasoning: draft.reasoning, own: draft.own ?? false, problem };
  });
}

function iterationsText(n: number): string {
  return n === 1 ? "1 iteration" : `${n} iterations`;
}
