import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dehydrate } from "@tanstack/react-query";
import { renderToReadableStream } from "react-dom/server";
import { App } from "#web/app.tsx";
import { Document, serializeBoot, type AssetManifest, type BootData } from "#web/document.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import { loadPage, matchPage, pageModules, type PageId } from "#web/routes.ts";
import type { ApiClient } from "#src/client/api.ts";
import type { PageRenderer } from "#src/server/routes/pages.ts";
import { queries } from "#web/shared-chunk.ts";
import { createPageCache, pageKey, type PageCache } from "#web/page-cache.ts";

export type { AssetManifest, BootData } from "#web/document.tsx";

export type RenderRequest = {
  url: URL;
  manifest: AssetManifest;
  signal?: AbortSignal;
  /** The API as this request's caller sees it (their cookies), for prefetching page data. */
  api: ApiClient;
  /** Put on every script React writes; the page's CSP names it. Absent, React writes none. */
  nonce?: string;
  /** Pages rendered a moment ago, answered again for the same address and data without rendering. */
  cache?: PageCache;
};

/** React's mark of a Suspense boundary whose content came later in the stream. */
const PENDING_BOUNDARY = "<!--$?-->";

/** The server's page renderer for the client build in `distDir` (its manifest names the hashed files). */
export function loadPageRenderer(distDir: string): PageRenderer {
  let manifest: AssetManifest;
  try {
    manifest = JSON.parse(readFileSync(join(distDir, "manifest.json"), "utf8")) as AssetManifest;
  } catch {
    throw new Error(`No client build in ${distDir}: run \`bun run scripts/build-assets.ts\` (or \`bun run start\`, which builds first)`);
  }
  const cache = createPageCache();
  return (request) => renderPage({ ...request, manifest, cache });
}

/** Streams the server-rendered page, with the status its prefetch gives (404: spec §2 not-found screen, a dead share link; 429: a share link read too often). */
export async function renderPage({ url, manifest, signal, api, nonce, cache }: RenderRequest): Promise<Response> {
  const match = matchPage(url.pathname);
  const page = await loadPage(match.id);
  const queryClient = createQueryClient();
  // Data the first paint needs is in the HTML; a failed prefetch leaves the page to fetch and report it.
  const [outcome] = await Promise.all([
    page.prefetch?.({ queryClient, api, params: match.params, url }).catch(() => undefined),
    // A report page draws no header: it needs neither the visitor's account nor the providers' status.
    ...(page.chrome === "report"
      ? []
      : [queryClient.prefetchQuery(queries.status(api)), queryClient.prefetchQuery(queries.user(api)), queryClient.prefetchQuery(queries.proStatus(api))]),
  ]);
  const preload = outcome?.status === 200 ? outcome.preload.filter((id): id is PageId => id in pageModules) : [];
  const boot: BootData = { queryState: dehydrate(queryClient), manifest, page: match.id, ...(preload.length ? { preload } : {}) };
  const bootJson = serializeBoot(boot);
  const status = outcome?.status ?? 200;
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    ...(outcome?.status === 429 ? { "retry-after": String(outcome.retryAfterS) } : {}),
  };
  // Only a whole page of a found address is kept, and only with a nonce to swap.
  const key = cache && nonce && status === 200 ? pageKey(url, bootJson) : undefined;
  const kept = key ? cache?.get(key, nonce as string) : undefined;
  if (kept !== undefined) return new Response(kept, { status, headers });
  let failed = false;
  const stream = await renderToReadableStream(
    <Document boot={boot} bootJson={bootJson}>
      <App queryClient={queryClient} ssrPath={url.pathname} ssrSearch={url.search.replace(/^\?/, "")} />
    </Document>,
    {
      bootstrapModules: [manifest.entry],
      // The page's CSP allows inline scripts only with this (src/server/http/security-headers.ts).
      nonce,
      // Never outline content into hidden segments: without JavaScript the page must still read.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      signal,
      onError(error) {
        failed = true;
        if (!signal?.aborted) console.error("SSR error", error);
      },
    },
  );
  if (!key || !cache || !nonce) return new Response(stream, { status, headers });
  // The page streams as it renders; a copy is read alongside and kept once it ended without an error,
  // and only when nothing in it waited (a lazy part loaded for the first time streams its fallback
  // and then the part with a script to swap it in, `<!--$?-->`: a page to render again, not to keep).
  const [sent, copy] = stream.tee();
  new Response(copy)
    .text()
    .then((html) => {
      if (!failed && !signal?.aborted && !html.includes(PENDING_BOUNDARY)) cache.set(key, html, nonce);
    })
    .catch(() => undefined);
  return new Response(sent, { status, headers });
}
