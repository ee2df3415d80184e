import { dehydrate, type DehydratedState } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import { App } from "#web/app.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import { queries } from "#web/lib/queries.ts";
import { loadPage, matchPage, type PageId } from "#web/routes.ts";
import type { ApiClient } from "#src/client/api.ts";

/** Written by scripts/build-assets.ts: public URLs of the hashed client files. */
export type AssetManifest = {
  entry: string;
  css: string;
  /** Per page: the page chunk and the shared chunks it needs, for modulepreload. */
  pages: Partial<Record<PageId, string[]>>;
};

export type BootData = { queryState: DehydratedState };

export type RenderRequest = {
  url: URL;
  manifest: AssetManifest;
  signal?: AbortSignal;
  /** The API as this request's caller sees it (their cookies), for prefetching page data. */
  api: ApiClient;
};

/** Streams the server-rendered page; status 404 for unknown paths (spec §2 not-found screen). */
export async function renderPage({ url, manifest, signal, api }: RenderRequest): Promise<Response> {
  const match = matchPage(url.pathname);
  const page = await loadPage(match.id);
  const queryClient = createQueryClient();
  // Data the first paint needs is in the HTML; a failed prefetch leaves the page to fetch and report it.
  await Promise.all([
    queryClient.prefetchQuery(queries.status(api)),
    queryClient.prefetchQuery(queries.user(api)),
    queryClient.prefetchQuery(queries.proStatus(api)),
    page.prefetch?.({ queryClient, api, params: match.params, url }).catch(() => undefined),
  ]);
  const boot: BootData = { queryState: dehydrate(queryClient) };
  const stream = await renderToReadableStream(
    <Document manifest={manifest} page={match.id} boot={boot}>
      <App queryClient={queryClient} ssrPath={url.pathname} ssrSearch={url.search.replace(/^\?/, "")} />
    </Document>,
    {
      bootstrapModules: [manifest.entry],
      signal,
      onError(error) {
        if (!signal?.aborted) console.error("SSR error", error);
      },
    },
  );
  return new Response(stream, {
    status: match.id === "notFound" ? 404 : 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

type DocumentProps = { manifest: AssetManifest; page: PageId; boot: BootData; children: ReactNode };

function Document({ manifest, page, boot, children }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content="Compare the products, companies and sources that OpenAI, Anthropic and Gemini return for the same web search." />
        <link rel="icon" href={FAVICON} />
        <link rel="stylesheet" href={manifest.css} />
        {(manifest.pages[page] ?? []).map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <div id="root">{children}</div>
        <script id="__BOOT__" type="application/json" dangerouslySetInnerHTML={{ __html: serialize(boot) }} />
      </body>
    </html>
  );
}

// JSON inside a script element must not be able to close it.
function serialize(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#171717" stroke-width="2.5" stroke-linecap="round"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>',
  );
