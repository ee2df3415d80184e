import type { DehydratedState } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { PageId } from "#web/routes.ts";

/** Written by scripts/build-assets.ts: public URLs of the hashed client files. */
export type AssetManifest = {
  entry: string;
  css: string;
  /**
   * Per page module: its chunk and the shared chunks it needs beyond the entry's, for
   * modulepreload. None for a page bundled with the entry.
   */
  pages: Partial<Record<PageId, string[]>>;
};

/** What the server hands the browser inside the page. */
export type BootData = {
  queryState: DehydratedState;
  manifest: AssetManifest;
  page: PageId;
  /** Other page modules this page loads for what it shows (a share link's view), preloaded with it. */
  preload?: PageId[];
};

export const BOOT_ELEMENT_ID = "__BOOT__";

type DocumentProps = {
  boot: BootData;
  /** `boot` as written into the page; the browser passes back the exact text it received. */
  bootJson: string;
  children: ReactNode;
};

/**
 * The whole HTML document. The server renders it around <App>, and the browser hydrates the
 * same tree from `document`, so React's generated ids (useId) agree on both sides.
 */
export function Document({ boot, bootJson, children }: DocumentProps) {
  const { manifest, page, preload = [] } = boot;
  const preloads = new Set([page, ...preload].flatMap((id) => manifest.pages[id] ?? []));
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content="Compare the products, companies and sources that OpenAI, Anthropic and Gemini return for the same web search." />
        <link rel="icon" href={FAVICON} />
        <link rel="stylesheet" href={manifest.css} />
        {[...preloads].map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <div id="root">{children}</div>
        <script id={BOOT_ELEMENT_ID} type="application/json" dangerouslySetInnerHTML={{ __html: bootJson }} />
      </body>
    </html>
  );
}

// JSON inside a script element must not be able to close it.
export function serializeBoot(data: BootData): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#171717" stroke-width="2.5" stroke-linecap="round"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>',
  );
