import { hydrate } from "@tanstack/react-query";
import { hydrateRoot } from "react-dom/client";
import { App } from "#web/app.tsx";
import { BOOT_ELEMENT_ID, Document, type BootData } from "#web/document.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import { loadPage, matchPage } from "#web/routes.ts";

const bootJson = document.getElementById(BOOT_ELEMENT_ID)?.textContent ?? "{}";
const boot = JSON.parse(bootJson) as BootData;
const queryClient = createQueryClient();
hydrate(queryClient, boot.queryState);

// The current page's code is loaded before hydrating, so the first client render matches the HTML.
await loadPage(matchPage(window.location.pathname).id);
hydrateRoot(
  document,
  <Document boot={boot} bootJson={bootJson}>
    <App queryClient={queryClient} />
  </Document>,
);
