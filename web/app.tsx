import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, use, useEffect, useState } from "react";
import { Router, useLocation, type AroundNavHandler } from "wouter";
import { Header } from "#web/components/header.tsx";
import { PageSkeleton } from "#web/components/page-skeleton.tsx";
import { Toasts } from "#web/components/toasts.tsx";
import { TooltipProvider } from "#web/components/ui/tooltip.tsx";
import { loadPage, matchPage } from "#web/routes.ts";
import { mayBeReturning } from "#web/lib/checkout-return.ts";

const ReturnVerification = lazy(() => import("#web/components/billing/return-verification.tsx").then((m) => ({ default: m.ReturnVerification })));

export type AppProps = {
  queryClient: QueryClient;
  /** Server only: the request's path and query string. */
  ssrPath?: string;
  ssrSearch?: string;
};

/** The whole React tree, identical on the server and in the browser. */
export function App({ queryClient, ssrPath, ssrSearch }: AppProps) {
  // Only a page that may be the return from a payment loads the code that verifies it.
  const [returning, setReturning] = useState(false);
  // A visible marker that the page is interactive: end-to-end tests wait on it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
    setReturning(mayBeReturning(new URL(window.location.href)));
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <Router ssrPath={ssrPath} ssrSearch={ssrSearch} aroundNav={preloadThenNavigate}>
          <div className="flex min-h-screen flex-col bg-background text-foreground">
            {/* Most pages are the app's: its header shows while a page's code loads (a back/forward navigation). */}
            <Suspense
              fallback={
                <>
                  <Header />
                  <PageSkeleton />
                </>
              }
            >
              <CurrentPage />
            </Suspense>
          </div>
          <Toasts />
          {returning ? (
            <Suspense fallback={null}>
              <ReturnVerification />
            </Suspense>
          ) : null}
        </Router>
      </TooltipProvider>
    </QueryClientProvider>
  );
}

/** The page under the product's header, or on its own when it is a report (its module's `chrome`). */
function CurrentPage() {
  const [location] = useLocation();
  const { id, params } = matchPage(location);
  const { default: Page, chrome } = use(loadPage(id));
  return (
    <>
      {chrome === "report" ? null : <Header />}
      <Page params={params} />
    </>
  );
}

// Fetch the next page's code before switching, so a click never flashes a skeleton.
const preloadThenNavigate: AroundNavHandler = (navigate, to, options) => {
  const { pathname, hash } = new URL(to, "http://local");
  loadPage(matchPage(pathname).id).then(
    () => {
      const from = window.location.pathname;
      navigate(to, options);
      // Another page starts at its top, as a full load would (an edit saved mid-form opened the tracker mid-page);
      // a change of the same page's query string keeps its place, and a #fragment is the page's own to scroll to.
      if (pathname !== from && !hash) window.scrollTo(0, 0);
    },
    () => window.location.assign(to),
  );
};
