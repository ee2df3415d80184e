import { CircleAlert, CircleCheck, Clock, Eye, LoaderCircle, Play, Trash2 } from "lucide-react";
import { useId } from "react";
import { Link } from "wouter";
import { isRunnable } from "#src/contract/batch-status.ts";
import { QUERY_MAX_LENGTH } from "#src/contract/constants.ts";
import type { BatchItem } from "#src/contract/variants.ts";
import { cn } from "#web/lib/utils.ts";
import { dashboardHref } from "#web/lib/workbench.ts";
import { Badge, Button, Card, CardContent, CardFooter, CardHeader, Input } from "#web/shared-chunk.ts";

/** One variant as the page shows it: editable (the set has not run yet) or an item of the batch it ran as. */
export type VariantView = {
  key: string;
  query: string;
  reasoning?: string | null | undefined;
  /** Written by the person, not by the model. */
  own?: boolean;
  /** Absent while the list is a draft: its query can still be edited. */
  status?: BatchItem["status"];
  error?: string | null;
  /** Why the draft's query cannot be saved as it is. */
  problem?: string | undefined;
};

export type VariantCardProps = {
  n: number;
  variant: VariantView;
  /** A search is being started: the buttons wait. */
  busy: boolean;
  onRun: () => void;
  onEdit?: (query: string) => void;
  /** The person left the query's field: a good moment to save. */
  onDone?: () => void;
  onRemove?: () => void;
};

/** Spec §2 variant card: "Variant n", its query (editable until it runs), reasoning, status and actions. */
export function VariantCard({ n, variant, busy, onRun, onEdit, onDone, onRemove }: VariantCardProps) {
  const headingId = useId();
  const inputId = useId();
  const problemId = useId();
  const { status } = variant;
  const runnable = status === undefined || isRunnable(status);

  return (
    <Card className="min-w-0 gap-3" role="region" aria-labelledby={headingId} data-testid="variant-card">
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="leading-none font-semibold">{`Variant ${n}`}</h3>
        <StatusTag status={status} own={variant.own ?? false} />
      </CardHeader>
      <CardContent className="min-w-0 space-y-2">
        {onEdit ? (
          <div className="space-y-1">
            <label htmlFor={inputId} className="sr-only">{`Variant ${n} query`}</label>
            <Input
              id={inputId}
              value={variant.query}
              onChange={(event) => onEdit(event.target.value)}
              onBlur={onDone}
              maxLength={QUERY_MAX_LENGTH}
              aria-invalid={variant.problem ? true : undefined}
              aria-describedby={variant.problem ? problemId : undefined}
            />
            {variant.problem ? (
              <p id={problemId} className="text-sm text-destructive">
                {variant.problem}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="font-medium break-words" data-testid="variant-query">
            {variant.query}
          </p>
        )}
        {variant.reasoning ? <p className="text-sm break-words text-muted-foreground">{variant.reasoning}</p> : null}
        {status === "failed" && variant.error ? (
          <p className="flex gap-1.5 text-sm break-words text-destructive">
            <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {variant.error}
          </p>
        ) : null}
      </CardContent>
      <CardFooter className="mt-auto flex flex-wrap gap-2">
        {runnable ? (
          <Button type="button" size="sm" variant={status === "failed" ? "default" : "outline"} disabled={busy} onClick={onRun}>
            <Play aria-hidden="true" />
            Run Search
            <span className="sr-only">{` for variant ${n}`}</span>
          </Button>
        ) : null}
        {status === "completed" ? (
          <Button asChild size="sm" variant="outline">
            <Link href={dashboardHref(variant.query)}>
              <Eye aria-hidden="true" />
              View Results
              <span className="sr-only">{` of variant ${n}`}</span>
            </Link>
          </Button>
        ) : null}
        {onRemove ? (
          <Button type="button" size="sm" variant="ghost" onClick={onRemove}>
            <Trash2 aria-hidden="true" />
            Remove
            <span className="sr-only">{` variant ${n}`}</span>
          </Button>
        ) : null}
      </CardFooter>
    </Card>
  );
}

const TAG = "gap-1";

function StatusTag({ status, own }: { status: VariantView["status"]; own: boolean }) {
  switch (status) {
    case "completed":
      return (
        <Badge variant="outline" className={cn(TAG, "border-emerald-600 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100")}>
          <CircleCheck aria-hidden="true" />
          Completed
        </Badge>
      );
    case "running":
      return (
        <Badge variant="secondary" className={TAG} role="status">
          <LoaderCircle className="animate-spin" aria-hidden="true" />
          Running
        </Badge>
      );
    case "queued":
      return (
        <Badge variant="secondary" className={TAG} role="status">
          <Clock aria-hidden="true" />
          Queued
        </Badge>
      );
    case "failed":
      return (
        <Badge variant="destructive" className={TAG}>
          <CircleAlert aria-hidden="true" />
          Failed
        </Badge>
      );
    case "pending":
      return <Badge variant="outline">Not run yet</Badge>;
    default:
      return own ? <Badge variant="outline">Your own</Badge> : null;
  }
}
