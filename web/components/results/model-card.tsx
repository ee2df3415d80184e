import {
  Ban,
  CircleAlert,
  CircleDollarSign,
  FileText,
  MapPin,
  MapPinOff,
  PowerOff,
  Scissors,
  Search,
  TextSearch,
  TimerOff,
  TriangleAlert,
  Unplug,
} from "lucide-react";
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { failureLabels } from "#src/contract/provider-failures.ts";
import { providerCatalogue, type ProviderId } from "#src/contract/providers.ts";
import { type Truncation, type TruncationKind } from "#src/contract/provider-config.ts";
import type { Mention, ModelResult } from "#src/contract/search-result.ts";
import { byRank } from "#src/core/aggregate.ts";
import { visibleText } from "#src/core/display-text.ts";
import { locationNote } from "#src/core/location.ts";
import { askedNote, rateLimitNote, readNote } from "#src/core/method.ts";
import { dedupeSources, sourceLabel } from "#src/core/urls.ts";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "#web/components/ui/dialog.tsx";
import { formatSeconds } from "#web/lib/format.ts";
import { cn } from "#web/lib/utils.ts";
import { CardHeading, EmptyText, ListOrEmpty, SimulatedBadge, SourceLink, plural } from "./shared.tsx";
import { Alert, AlertDescription, AlertTitle, Badge, Button, Card, CardContent, CardDescription, CardFooter, CardHeader } from "#web/shared-chunk.ts";

// The markdown renderer loads with the first full response opened, not with the results.
const AnswerAsRead = lazy(() => import("./answer-markdown.tsx"));

/** Spec §9 card limits. */
export const CARD_PRODUCTS = 3;
export const CARD_COMPANIES = 5;
export const CARD_SOURCES = 8;

/**
 * One provider's answer in the Side by Side tab (spec §2), with its status and honesty labels;
 * `cost`, once the search is saved, what it cost (its CostLabel: the dashboard's first page does not load it).
 */
export function ModelCard({ provider, model, cost }: { provider: ProviderId; model: ModelResult; cost?: ReactNode }) {
  const labels = providerCatalogue[provider];
  const title = `${labels.model} Results`;
  const headingId = useId();

  return (
    <Card className="min-w-0 gap-4" aria-labelledby={headingId} role="region" data-print-flow="">
      <CardHeader className="gap-1.5">
        <CardHeading id={headingId}>{title}</CardHeading>
        <CardDescription className="flex flex-wrap items-center gap-1.5">
          <span>{labels.company}</span>
          {model.status === "ok" && model.durationMs > 0 ? <span title="Response time">{`· ${formatSeconds(model.durationMs)}`}</span> : null}
        </CardDescription>
        <div className="flex min-w-0 flex-wrap items-center gap-1.5">
          {model.modelVersion ? (
            <Badge variant="secondary" className="max-w-full truncate" title={`Model version: ${model.modelVersion}`}>
              <span className="sr-only">Model version </span>
              {model.modelVersion}
            </Badge>
          ) : null}
          {model.simulated ? <SimulatedBadge /> : null}
          {model.location === "applied" ? (
            <Badge variant="outline" title={locationNote(provider, "applied")}>
              <MapPin aria-hidden="true" />
              Localised
            </Badge>
          ) : null}
          {cost}
        </div>
      </CardHeader>

      <CardContent className="flex flex-1 flex-col gap-4">
        {model.status === "off" ? <NotConnected /> : model.status === "error" ? <ErrorState model={model} /> : <Answer model={model} />}
      </CardContent>

      {model.status !== "off" ? (
        <CardFooter className="mt-auto">
          <FullResponseDialog provider={provider} model={model} />
        </CardFooter>
      ) : null}
    </Card>
  );
}

/** A search asked from a place that this provider's search cannot take (ADR 042). */
function NotLocalisedNote({ model }: { model: ModelResult }) {
  if (model.location !== "not supported") return null;
  return (
    <p role="note" className="flex items-start gap-2 text-sm text-muted-foreground">
      <MapPinOff className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {locationNote(model.provider, "not supported")}
    </p>
  );
}

function NotConnected() {
  return (
    <div className="flex flex-col gap-1 rounded-md border border-dashed p-4 text-sm">
      <p className="flex items-center gap-2 font-medium">
        <Unplug className="size-4" aria-hidden="true" />
        Not Connected
      </p>
      <p className="text-muted-foreground">This provider is not connected, so it was not searched.</p>
    </div>
  );
}

/** Why there is no answer: the provider failed, or the search stopped waiting for it (its time limit, its server stopping, a cancel). */
const STOPPED = {
  deadline: { title: "Timed Out", Icon: TimerOff },
  interrupted: { title: "Server Stopped", Icon: PowerOff },
  cancelled: { title: "Cancelled", Icon: Ban },
  "spend-limit": { title: "Spend Limit Reached", Icon: CircleDollarSign },
} as const;

function ErrorState({ model }: { model: ModelResult }) {
  const description = <AlertDescription className="break-words">{model.error?.trim() || "The provider returned an error."}</AlertDescription>;
  if (model.stopped) {
    const { title, Icon } = STOPPED[model.stopped];
    return (
      <Alert className="border-amber-500 text-amber-900 dark:text-amber-100">
        <Icon aria-hidden="true" />
        <AlertTitle>{title}</AlertTitle>
        {description}
      </Alert>
    );
  }
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      {/* A known cause is named as the Connection Status names it (ADR 040). */}
      <AlertTitle>{model.failure && model.failure !== "provider_error" ? `Search failed: ${failureLabels[model.failure]}` : "Search failed"}</AlertTitle>
      {description}
      <RateLimitNote model={model} />
    </Alert>
  );
}

/** The 429s the provider answered on the way, and the wait they cost; nothing when there were none. */
function RateLimitNote({ model }: { model: ModelResult }) {
  const note = rateLimitNote(model);
  return note ? <p className="text-xs text-muted-foreground">{note}</p> : null;
}

function Answer({ model }: { model: ModelResult }) {
  const products = useMemo(() => byRank(model.products), [model]);
  const sources = useMemo(() => dedupeSources(model.sources), [model.sources]);
  const shownSources = sources.slice(0, CARD_SOURCES);
  const moreSources = sources.length - shownSources.length;
  const cited = sources.filter((s) => s.cited).length;

  return (
    <>
      {!model.searched ? (
        <Alert role="note" className="border-amber-500 text-amber-900 dark:text-amber-100">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle className="line-clamp-none">Answered without searching the web</AlertTitle>
          <AlertDescription className="text-amber-900 dark:text-amber-100">
            The model replied from what it already knew; its answer may be out of date.
          </AlertDescription>
        </Alert>
      ) : null}

      <NotLocalisedNote model={model} />

      {model.truncated ? <TruncatedNote truncation={model.truncated} /> : null}

      <RateLimitNote model={model} />

      {model.searchQueries.length > 0 ? <SearchQueries queries={model.searchQueries} /> : null}

      <section className="space-y-2">
        <h4 className="text-sm font-semibold">Top Products</h4>
        {products.length === 0 ? (
          <EmptyText>No products found</EmptyText>
        ) : (
          <ol className="space-y-2">
            {products.slice(0, CARD_PRODUCTS).map((product, index) => (
              <li key={`${product.name}-${index}`} className="flex min-w-0 gap-2 text-sm">
                <span
                  className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
                  aria-hidden="true"
                >
                  {product.number}
                </span>
                <div className="min-w-0">
                  <p className="font-medium break-words">
                    <span className="sr-only">{`${product.number}. `}</span>
                    {product.name}
                  </p>
                  {product.details ? <p className="line-clamp-2 text-xs break-words text-muted-foreground">{product.details}</p> : null}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="space-y-2">
        <h4 className="text-sm font-semibold">Brands Mentioned</h4>
        {model.companies.length === 0 ? (
          <EmptyText>No companies found</EmptyText>
        ) : (
          <ul className="flex flex-wrap gap-1.5">
            {model.companies.slice(0, CARD_COMPANIES).map((company, index) => (
              <li key={`${company.name}-${index}`} className="max-w-full">
                <Badge variant="outline" className="max-w-full truncate" title={visibleText(company.name)}>
                  {visibleText(company.name)}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-2">
          <h4 className="text-sm font-semibold">Sources</h4>
          {sources.length > 0 ? <span className="text-xs text-muted-foreground">{`${sources.length} total, ${cited} cited`}</span> : null}
        </div>
        {sources.length === 0 ? (
          <EmptyText>No sources found</EmptyText>
        ) : (
          <>
            <ul className="max-h-48 space-y-1 overflow-y-auto pr-1 text-sm">
              {shownSources.map((source, index) => (
                <li key={`${source.url}-${index}`} className="flex min-w-0 items-center gap-1.5">
                  <SourceLink source={source} className="min-w-0" />
                  {source.cited ? (
                    <span
                      className="shrink-0 rounded bg-muted px-1 text-[10px] font-medium tracking-wide text-foreground uppercase"
                      title="Cited in the answer (the others were only retrieved)"
                    >
                      cited
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            {moreSources > 0 ? <p className="text-xs text-muted-foreground">{`+ ${moreSources} more sources`}</p> : null}
          </>
        )}
      </section>
    </>
  );
}

/** A cut answer's kind in words; a signal we give no meaning to shows as the provider sent it. */
const TRUNCATION_WORDS: Record<Exclude<TruncationKind, "other">, string> = {
  length: "length limit reached",
  context: "context window full",
  filter: "content filter",
  refusal: "the model declined to go on",
};

/** The provider stopped before the answer was finished: what is listed comes from the part that arrived. */
function TruncatedNote({ truncation: { kind, signal } }: { truncation: Truncation }) {
  const words = kind === "other" ? signal : TRUNCATION_WORDS[kind];
  return (
    <p role="note" className="flex items-start gap-1.5 text-xs text-amber-900 dark:text-amber-100" title={`Finish signal: ${signal}`}>
      <Scissors className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
      <span>{`The provider cut this answer short (${words}); the lists come from the part that arrived.`}</span>
    </p>
  );
}

function SearchQueries({ queries }: { queries: string[] }) {
  return (
    <details className="group rounded-md border px-3 py-2 text-xs">
      <summary className="flex cursor-pointer items-center gap-1.5 text-muted-foreground marker:content-none focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        <Search className="size-3" aria-hidden="true" />
        {`Searched the web for ${plural(queries.length, "query", "queries")}`}
      </summary>
      <ul className="mt-2 list-disc space-y-0.5 pl-4 break-words">
        {queries.map((query, index) => (
          <li key={`${query}-${index}`}>{query}</li>
        ))}
      </ul>
    </details>
  );
}

/** Spec §2 'View Full Response': every product, company and source, and the raw answer. */
function FullResponseDialog({ provider, model }: { provider: ProviderId; model: ModelResult }) {
  const labels = providerCatalogue[provider];
  const products = byRank(model.products);
  const sources = dedupeSources(model.sources);
  // The item whose first mention the raw response highlights ("Show where it says that"), in the raw text.
  const [shown, setShown] = useState<Mention | null>(null);
  const [raw, setRaw] = useState(false);
  const show = ({ mention }: { mention?: Mention | undefined }) =>
    mention
      ? () => {
          setShown(mention);
          setRaw(true);
        }
      : undefined;

  return (
    <Dialog
      onOpenChange={() => {
        setShown(null);
        setRaw(false);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="w-full">
          View Full Response<span className="sr-only"> from {labels.model}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center justify-center gap-2 sm:justify-start sm:pr-6">
            {`${labels.model} Full Response`}
            {model.simulated ? <SimulatedBadge /> : null}
          </DialogTitle>
          <DialogDescription>
            {labels.company}
            {model.modelVersion ? ` · ${model.modelVersion}` : ""}
          </DialogDescription>
        </DialogHeader>

        {model.status === "error" ? <ErrorState model={model} /> : null}
        <NotLocalisedNote model={model} />

        {model.truncated ? <TruncatedNote truncation={model.truncated} /> : null}
        {model.status === "ok" ? <HowAsked model={model} /> : null}

        <ResponseSection title={`Products (${products.length})`}>
          <ListOrEmpty items={products} empty="No products found" ordered className="space-y-2 text-sm">
            {(product, index) => (
              <li key={`${product.name}-${index}`} className="min-w-0 rounded-md border p-2">
                <p className="flex flex-wrap items-center justify-between gap-x-2 font-medium break-words">
                  {`${product.number}. ${product.name}`}
                  <ShowWhere name={product.name} onShow={show(product)} />
                </p>
                {product.details ? <p className="mt-1 break-words whitespace-pre-line text-muted-foreground">{product.details}</p> : null}
              </li>
            )}
          </ListOrEmpty>
        </ResponseSection>

        <ResponseSection title={`Companies (${model.companies.length})`}>
          <ListOrEmpty items={model.companies} empty="No companies found" className="space-y-1.5 text-sm">
            {(company, index) => (
              <li key={`${company.name}-${index}`} className="break-words">
                <span className="font-medium">{company.name}</span>
                {company.products && company.products.length > 0 ? <span className="text-muted-foreground"> — {company.products.join(", ")}</span> : null}
                <ShowWhere name={company.name} onShow={show(company)} className="ml-2" />
              </li>
            )}
          </ListOrEmpty>
        </ResponseSection>

        <ResponseSection title={`Sources (${sources.length})`}>
          <ListOrEmpty items={sources} empty="No sources found" className="space-y-2 text-sm">
            {(source, index) => (
              <li key={`${source.url}-${index}`} className="min-w-0">
                <p className="flex flex-wrap items-center gap-1.5 font-medium break-words">
                  <span>{sourceLabel(source, { preferTitle: true })}</span>
                  {/* Spec §2 names an untitled source 'Unnamed Source': said beside its host and path, which tell it apart. */}
                  {source.title?.trim() ? null : <span className="text-xs font-normal text-muted-foreground">Unnamed Source</span>}
                  {source.cited ? <span className="rounded bg-muted px-1 text-[10px] font-medium tracking-wide uppercase">cited</span> : null}
                </p>
                <SourceLink source={source} show="url" className="text-xs" />
              </li>
            )}
          </ListOrEmpty>
        </ResponseSection>

        {model.searchQueries.length > 0 ? (
          <ResponseSection title={`Search Queries (${model.searchQueries.length})`}>
            <ul className="list-disc space-y-0.5 pl-5 text-sm break-words">
              {model.searchQueries.map((query, index) => (
                <li key={`${query}-${index}`}>{query}</li>
              ))}
            </ul>
          </ResponseSection>
        ) : null}

        {model.rawResponse ? (
          <ResponseSection
            title="Raw Response"
            action={
              <Button type="button" variant="link" size="xs" className="h-auto p-0" aria-pressed={raw} onClick={() => setRaw(!raw)}>
                <FileText aria-hidden="true" />
                Show raw text
              </Button>
            }
          >
            {raw ? (
              <RawResponse text={model.rawResponse} label={`Raw response from ${labels.model}`} shown={shown} />
            ) : (
              // Focusable so keyboard users can scroll it (axe scrollable-region-focusable), like the raw text.
              <div
                tabIndex={0}
                role="region"
                aria-label={`Response from ${labels.model}`}
                className="max-h-80 overflow-auto rounded-md border p-3 text-sm break-words focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <Suspense fallback={<p className="text-muted-foreground">Loading the answer…</p>}>
                  <AnswerAsRead text={model.rawResponse} />
                </Suspense>
              </div>
            )}
          </ResponseSection>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/** A link-sized button that highlights where the answer first names an item; nothing when it never does in so many words. */
function ShowWhere({ name, onShow, className }: { name: string; onShow: (() => void) | undefined; className?: string }) {
  if (!onShow) return null;
  return (
    <Button
      type="button"
      variant="link"
      size="xs"
      className={cn("h-auto p-0 font-normal", className)}
      onClick={onShow}
      aria-label={`Show where it says that: ${name}`}
    >
      <TextSearch aria-hidden="true" />
      Show where it says that
    </Button>
  );
}

/** The answer as the model wrote it, with the chosen item's first mention marked and scrolled into view. */
function RawResponse({ text, label, shown }: { text: string; label: string; shown: Mention | null }) {
  const mark = useRef<HTMLElement>(null);
  useEffect(() => {
    mark.current?.scrollIntoView({ block: "center" });
  }, [shown]);
  const span = shown && shown.end <= text.length && shown.start < shown.end ? shown : null;
  return (
    <pre tabIndex={0} aria-label={label} className="max-h-80 overflow-auto rounded-md bg-muted p-3 text-xs break-words whitespace-pre-wrap">
      {span ? (
        <>
          {text.slice(0, span.start)}
          <mark ref={mark} className="rounded-sm bg-yellow-200 text-foreground dark:bg-yellow-700">
            {text.slice(span.start, span.end)}
          </mark>
          {text.slice(span.end)}
        </>
      ) : (
        text
      )}
    </pre>
  );
}

/** One part of the full response, under its heading (and a control beside it). */
/** How the answer was asked and read: what its lists measure. */
function HowAsked({ model }: { model: ModelResult }) {
  return (
    <section aria-label="How this answer was asked and read" className="space-y-0.5 rounded-md bg-muted/50 px-3 py-2 text-xs text-muted-foreground">
      <p>{askedNote(model)}</p>
      <p>{readNote(model)}</p>
      {rateLimitNote(model) ? <p>{rateLimitNote(model)}</p> : null}
    </section>
  );
}

function ResponseSection({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="min-w-0 space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-2">
        <h3 className="font-semibold">{title}</h3>
        {action}
      </div>
      {children}
    </section>
  );
}
