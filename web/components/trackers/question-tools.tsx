import { useMutation } from "@tanstack/react-query";
import { Check, FileUp, LoaderCircle, Tags, WandSparkles, X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { MAX_TRACKER_QUERIES, TAG_MAX_LENGTH } from "#src/contract/trackers.ts";
import type { QuestionSuggestions } from "#src/contract/variants.ts";
import { parseQuestionCsv, planImport, type CsvQuestion } from "#src/core/question-csv.ts";
import { SimulatedBadge } from "#web/components/results/shared.tsx";
import { Textarea } from "#web/components/ui/textarea.tsx";
import { queryLines, skipWords } from "#web/lib/tracker-form.ts";
import { errorText } from "#web/lib/workbench.ts";
import { api, Button, Input, providerCatalogue } from "#web/shared-chunk.ts";

/*
 * The questions' helpers on the tracker form: an import from a CSV (`question[,tag]`), a tag per
 * question, and buyer questions suggested by the variants' model. Each shows what it would add
 * before it adds anything.
 */

type Added = ReadonlyArray<CsvQuestion>;

/** "Import questions from CSV": a file or pasted text, what it adds and skips, then Add. */
export function QuestionImport({ queries, onAdd }: { queries: string; onAdd: (added: Added) => void }) {
  const id = useId();
  const [text, setText] = useState("");
  const plan = useMemo(() => (text.trim() ? planImport(queryLines(queries), parseQuestionCsv(text), MAX_TRACKER_QUERIES) : null), [text, queries]);
  return (
    <details className="rounded-lg border p-3 text-sm" data-testid="question-import">
      <summary className="flex cursor-pointer items-center gap-2 font-medium">
        <FileUp className="size-4" aria-hidden="true" />
        Import questions from CSV
      </summary>
      <div className="mt-3 space-y-3">
        <p className="text-muted-foreground">A question a row, and a tag after a comma if you like (question,tag); a header row is skipped.</p>
        <label className="block space-y-1" htmlFor={`${id}-file`}>
          <span className="font-medium">CSV file</span>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv,text/plain"
            className="block text-sm"
            onChange={async (event) => setText((await event.target.files?.[0]?.text()) ?? "")}
          />
        </label>
        <label className="block space-y-1" htmlFor={`${id}-paste`}>
          <span className="font-medium">Or paste it</span>
          <Textarea
            id={`${id}-paste`}
            rows={4}
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={"question,tag\nbest crm for startups,Startups"}
          />
        </label>
        {plan ? (
          <div className="space-y-2" aria-live="polite" data-testid="import-plan">
            <p>{plan.added.length === 0 ? "Nothing to add." : `Adds ${plan.added.length} question${plan.added.length === 1 ? "" : "s"}:`}</p>
            {plan.added.length > 0 ? (
              <ul className="list-disc pl-5">
                {plan.added.map((row) => (
                  <li key={row.question}>{row.tag ? `${row.question} (${row.tag})` : row.question}</li>
                ))}
              </ul>
            ) : null}
            {plan.skipped.length > 0 ? (
              <>
                <p className="text-muted-foreground">{`Skips ${plan.skipped.length}:`}</p>
                <ul className="list-disc pl-5 text-muted-foreground">
                  {plan.skipped.map((row) => (
                    <li key={row.line}>{`Line ${row.line}${row.question ? ` "${row.question}"` : ""}: ${skipWords[row.reason]}`}</li>
                  ))}
                </ul>
              </>
            ) : null}
            <Button
              type="button"
              size="sm"
              disabled={plan.added.length === 0}
              onClick={() => {
                onAdd(plan.added);
                setText("");
              }}
            >
              {`Add ${plan.added.length} question${plan.added.length === 1 ? "" : "s"}`}
            </Button>
          </div>
        ) : null}
      </div>
    </details>
  );
}

/** A tag per question: a trend of its own for each tag on the tracker's page. */
export function QuestionTagFields({
  queries,
  tags,
  onTags,
}: {
  queries: string;
  tags: Record<string, string>;
  onTags: (tags: Record<string, string>) => void;
}) {
  const id = useId();
  const lines = queryLines(queries);
  if (lines.length === 0) return null;
  return (
    <details className="rounded-lg border p-3 text-sm" data-testid="question-tags" open={Object.keys(tags).length > 0 || undefined}>
      <summary className="flex cursor-pointer items-center gap-2 font-medium">
        <Tags className="size-4" aria-hidden="true" />
        Tags (optional)
      </summary>
      <p className="mt-2 text-muted-foreground">Questions with the same tag get a trend of their own, pooled (up to 20 tags).</p>
      <ul className="mt-3 space-y-2">
        {lines.map((question, index) => (
          <li key={question} className="grid items-center gap-2 sm:grid-cols-[1fr_12rem]">
            <label htmlFor={`${id}-${index}`} className="truncate">
              {question}
            </label>
            <Input
              id={`${id}-${index}`}
              value={tags[question] ?? ""}
              maxLength={TAG_MAX_LENGTH}
              placeholder="No tag"
              onChange={(event) => onTags({ ...tags, [question]: event.target.value })}
            />
          </li>
        ))}
      </ul>
    </details>
  );
}

/** "Suggest questions": buyer questions from a category and the brand, each accepted or dismissed. */
export function QuestionSuggester({ queries, brand, onAccept }: { queries: string; brand: string; onAccept: (question: string) => void }) {
  const id = useId();
  const lines = queryLines(queries);
  const [category, setCategory] = useState("");
  const [answer, setAnswer] = useState<QuestionSuggestions | null>(null);
  const [dismissed, setDismissed] = useState<string[]>([]);
  const asked = category.trim() || lines[0] || "";
  const suggest = useMutation({
    mutationFn: () => api.suggestQuestions({ category: asked, ...(brand.trim() ? { brand } : {}), exclude: lines }),
    onSuccess: (found) => {
      setAnswer(found);
      setDismissed([]);
    },
  });
  const taken = new Set(lines.map((line) => line.toLowerCase()));
  const open = (answer?.suggestions ?? []).filter((one) => !taken.has(one.query.toLowerCase()) && !dismissed.includes(one.query));
  const full = lines.length >= MAX_TRACKER_QUERIES;
  return (
    <details className="rounded-lg border p-3 text-sm" data-testid="question-suggestions">
      <summary className="flex cursor-pointer items-center gap-2 font-medium">
        <WandSparkles className="size-4" aria-hidden="true" />
        Suggest questions
      </summary>
      <div className="mt-3 space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label className="block flex-1 space-y-1" htmlFor={`${id}-category`}>
            <span className="font-medium">Category</span>
            <Input
              id={`${id}-category`}
              value={category}
              onChange={(event) => setCategory(event.target.value)}
              placeholder={lines[0] ?? "CRM for small teams"}
            />
          </label>
          <Button type="button" variant="outline" size="sm" disabled={!asked || suggest.isPending} onClick={() => suggest.mutate()}>
            {suggest.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <WandSparkles aria-hidden="true" />}
            Suggest questions
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          Pro: written by the model that writes query variants, from the category (else your first question) and your brand.
        </p>
        {suggest.isError ? <p className="text-destructive">{errorText(suggest.error)}</p> : null}
        {answer ? (
          <div className="space-y-2" aria-live="polite">
            <p className="flex flex-wrap items-center gap-2 text-muted-foreground">
              {`Written by ${providerCatalogue[answer.generatedBy.provider].name} (${answer.generatedBy.model})`}
              {answer.generatedBy.mode === "simulated" ? <SimulatedBadge /> : null}
            </p>
            {open.length === 0 ? <p className="text-muted-foreground">No more suggestions: ask again for others.</p> : null}
            <ul className="space-y-2">
              {open.map((one) => (
                <li key={one.query} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2" data-testid="suggestion">
                  <span>
                    {one.query}
                    {one.reasoning ? <span className="block text-xs text-muted-foreground">{one.reasoning}</span> : null}
                  </span>
                  <span className="flex gap-1">
                    <Button type="button" size="sm" disabled={full} onClick={() => onAccept(one.query)}>
                      <Check aria-hidden="true" />
                      Accept
                      <span className="sr-only">{` "${one.query}"`}</span>
                    </Button>
                    <Button type="button" size="sm" variant="ghost" onClick={() => setDismissed([...dismissed, one.query])}>
                      <X aria-hidden="true" />
                      Dismiss
                      <span className="sr-only">{` "${one.query}"`}</span>
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
            {full ? <p className="text-muted-foreground">{`The tracker holds ${MAX_TRACKER_QUERIES} questions, the most it may.`}</p> : null}
          </div>
        ) : null}
      </div>
    </details>
  );
}
