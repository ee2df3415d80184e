import { hydrate } from "@tanstack/react-query";
import { hydrateRoot } from "react-dom/client";
import { App } from "#web/app.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import type { BootData } from "#web/render.tsx";
import { loadPage, matchPage } from "#web/routes.ts";

const boot = JSON.parse(document.getElementById("__BOOT__")?.textContent ?? "{}") as BootData;
const queryClient = createQueryClient();
hydrate(queryClient, boot.queryState);

// The current page's code is loaded before hydrating, so the first client render matches the HTML.
await loadPage(matchPage(window.location.pathname).id);
const root = document.getElementById("root");
if (root) hydrateRoot(root, <App queryClient={queryClient} />);
