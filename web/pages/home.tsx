import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from "react";
import { useSearchParams } from "wouter";
import { ConnectionStatus } from "#web/components/search/connection-status.tsx";
import { QuotaAlert } from "#web/components/search/quota-alert.tsx";
import { SearchForm } from "#web/components/search/search-form.tsx";
import { useSearch } from "#web/hooks/use-search.ts";
import type { PrefetchContext } from "#web/page.ts";
import { api, ApiError, Card, CardContent, FREE_DAILY_SEARCHES, providerIds, queries, Skeleton, toast, useStartUpgrade, messages } from "#web/shared-chunk.ts";

/**
 * A code-split component that renders at once when its code has already loaded. React.lazy
 * suspends on its first render even then, and React keeps a fallback up for at least 300 ms:
 * the progress panel would blink out and each first card come 300 ms late. Each use keeps the
 * form it started with, so nothing remounts when the code arrives.
 */
function preloadable<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => (loading ??= load().then((component) => (loaded = component)));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}

// What a search shows loads when the visitor starts typing, not with the first page (ADR 006).
const SearchResults = preloadable(() => import("#web/components/results/search-results.tsx").then((m) => m.SearchResults));
const SearchProgress = preloadable(() => import("#web/components/search/search-progress.tsx").then((m) => m.SearchProgress));
const ModelCard = preloadable(() => import("#web/components/results/model-card.tsx").then((m) => m.ModelCard));
const LatestSearch = preloadable(() => import("#web/components/search/latest-search.tsx").then((m) => m.LatestSearch));
const preloadSearchCode = () => {
  void SearchResults.preload();
  void SearchProgress.preload();
  void ModelCard.preload();
  void import("#web/lib/search-runner.ts");
};

export async function prefetch(context: PrefetchContext) {
  const { queryClient, api: serverApi, url } = context;
  const query = url.searchParams.get("query")?.trim();
  await Promise.all([
    queryClient.prefetchQuery(queries.quota(serverApi)),
    // `/?query=`: a signed-in caller's latest saved result of it comes with the page.
    query &&
      queryClient
        .ensureQueryData(queries.user(serverApi))
        .then(async (user) => user && (await import("#web/components/search/latest-search.tsx")).prefetchLatestSearch(context, query)),
  ]);
}

export default function HomePage() {
  const queryClient = useQueryClient();
  const { data: status } = useQuery(queries.status(api));
  const { data: pro } = useQuery(queries.proStatus(api));
  const { data: quota } = useQuery(queries.quota(api));
  const { data: user } = useQuery(queries.user(api));
  const upgrade = useStartUpgrade();
  const [params] = useSearchParams();
  const isPro = pro?.isPro ?? false;
  const asked = params.get("query")?.trim() ?? "";
  const remaining = isPro ? null : (quota?.remaining ?? FREE_DAILY_SEARCHES);

  const { state, start, cancel, reset } = useSearch({
    // The searches left come with the search itself: no second request for the quota.
    onRemaining: (left) =>
      queryClient.setQueryData(queries.quota(api).queryKey, (quota) =>
        quota && !quota.isPro ? { ...quota, remaining: left, used: (quota.limit ?? FREE_DAILY_SEARCHES) - left } : quota,
      ),
  });

  useEffect(() => {
    if (state.status !== "failed") return;
    const { error } = state;
    const code = error instanceof ApiError ? error.code : undefined;
    if (code === "DAILY_LIMIT_REACHED") {
      toast(messages.dailyLimit);
      upgrade.toCheckout();
    } else if (code === "PRO_REQUIRED") {
      toast(messages.proFeature);
      upgrade.toCheckout();
    } else {
      toast({ variant: "destructive", title: "Search failed", description: failureMessage(error) });
    }
    reset();
  }, [state, queryClient, upgrade, reset]);

  const searching = state.status === "searching";
  return (
    <main className="container mx-auto w-full max-w-6xl flex-1 px-4 py-8">
      <title>AI Search Comparison</title>
      <section className="mb-8 text-center">
        <h1 className="mb-2 text-3xl font-bold tracking-tight sm:text-4xl">AI Search Comparison</h1>
        <p className="text-muted-foreground">Compare results across multiple AI models with a single search</p>
      </section>
      <Card className="mx-auto mb-8 max-w-3xl">
        <CardContent className="space-y-4">
          {remaining === null ? null : <QuotaAlert remaining={remaining} />}
          <SearchForm
            onSearch={(request) => {
              preloadSearchCode();
              void start(request);
            }}
            onFocusQuery={preloadSearchCode}
            searching={searching}
            isPro={isPro}
            remaining={remaining}
            initialQuery={params.get("query") ?? ""}
          />
          <ConnectionStatus status={status} />
        </CardContent>
      </Card>

      {state.status === "searching" ? (
        <Suspense fallback={<Skeleton className="mx-auto mb-8 h-48 max-w-3xl" aria-label="Starting search" />}>
          <SearchProgress query={state.query} progress={state.progress} modes={state.modes} live={state.live} onCancel={cancel} cancelling={state.cancelling} />
          <div className="grid gap-4 md:grid-cols-2">
            {providerIds.map((id) => {
              const model = state.partial[id];
              const skeleton = <Skeleton key={id} className="h-64" aria-hidden="true" />;
              // Its own boundary: a card still loading its code must not hide the progress panel.
              return model ? (
                <Suspense key={id} fallback={skeleton}>
                  <ModelCard provider={id} model={model} />
                </Suspense>
              ) : (
                skeleton
              );
            })}
          </div>
        </Suspense>
      ) : state.status === "done" ? (
        <Suspense fallback={<Skeleton className="h-96" />}>
          <IntoView>
            <SearchResults result={state.result} isPro={isPro} />
          </IntoView>
        </Suspense>
      ) : asked && user ? (
        <Suspense fallback={<Skeleton className="h-96" />}>
          <LatestSearch key={asked} query={asked} isPro={isPro} fallback={placeholder} />
        </Suspense>
      ) : (
        placeholder
      )}
    </main>
  );
}

/**
 * The results of the search just run, brought into view as they arrive: below the form they
 * would start under the fold. Smoothly, unless the person prefers reduced motion.
 */
function IntoView({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    ref.current?.scrollIntoView({ behavior: reduced ? "auto" : "smooth", block: "start" });
  }, []);
  return (
    <div ref={ref} className="scroll-mt-4">
      {children}
    </div>
  );
}

const placeholder = (
  <p className="text-center text-muted-foreground">
    Enter a query above to see which products, companies and sources OpenAI, Anthropic and Gemini return for it.
  </p>
);

/** Spec §8 "Search failed": the server's message, else 'Search failed', else 'An unknown error occurred'. */
function failureMessage(error: Error): string {
  if (error instanceof ApiError) return error.serverMessage ?? "Search failed";
  return error.message || "An unknown error occurred";
}
