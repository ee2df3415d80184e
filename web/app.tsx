import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { Suspense, use, useEffect } from "react";
import { Router, useLocation, type AroundNavHandler } from "wouter";
import { ReturnVerification } from "#web/components/billing/return-verification.tsx";
import { Header } from "#web/components/header.tsx";
import { PageSkeleton } from "#web/components/page-skeleton.tsx";
import { Toasts } from "#web/components/toasts.tsx";
import { TooltipProvider } from "#web/components/ui/tooltip.tsx";
import { loadPage, matchPage } from "#web/routes.ts";

export type AppProps = {
  queryClient: QueryClient;
  /** Server only: the request's path and query string. */
  ssrPath?: string;
  ssrSearch?: string;
};

/** The whole React tree, identical on the server and in the browser. */
export function App({ queryClient, ssrPath, ssrSearch }: AppProps) {
  // A visible marker that the page is interactive: end-to-end tests wait on it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <Router ssrPath={ssrPath} ssrSearch={ssrSearch} aroundNav={preloadThenNavigate}>
          <div className="flex min-h-screen flex-col bg-background text-foreground">
            <Header />
            <Suspense fallback={<PageSkeleton />}>
              <CurrentPage />
            </Suspense>
          </div>
          <Toasts />
          <ReturnVerification />
        </Router>
      </TooltipProvider>
    </QueryClientProvider>
  );
}

function CurrentPage() {
  const [location] = useLocation();
  const { id, params } = matchPage(location);
  const Page = use(loadPage(id)).default;
  return <Page params={params} />;
}

// Fetch the next page's code before switching, so a click never flashes a skeleton.
const preloadThenNavigate: AroundNavHandler = (navigate, to, options) => {
  const pathname = new URL(to, "http://local").pathname;
  loadPage(matchPage(pathname).id).then(
    () => navigate(to, options),
    () => window.location.assign(to),
  );
};
