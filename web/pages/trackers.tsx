import { useLocation } from "wouter";
import { prefetchForm, TrackerFormPage } from "#web/components/trackers/tracker-form-page.tsx";
import { prefetchList, TrackerListPage } from "#web/components/trackers/tracker-list-page.tsx";
import { prefetchTracker, TrackerPage } from "#web/components/trackers/tracker-page.tsx";
import { InvitationPage, prefetchInvitation } from "#web/components/workspaces/invitation-page.tsx";
import { prefetchWorkspace, WorkspacePage } from "#web/components/workspaces/workspace-page.tsx";

// A share link's tracker is drawn by this chunk too: web/pages/shared.tsx loads it for a tracker's link.
export { prefetchSharedTracker, SharedTrackerReport } from "#web/components/trackers/tracker-page.tsx";
import type { PageProps, PrefetchContext, RouteParams } from "#web/page.ts";

/*
 * The trackers' screens, one page module and so one chunk: /trackers (the list),
 * /trackers/new and /trackers/{id}/edit (the form), /trackers/{id} (a tracker and its runs); and
 * the workspaces' they live in (ADR 071): /workspaces/{id} (its members, invitations and audit log)
 * and /invitations/{token} (an invitation's link).
 */

type View =
  | { kind: "list" }
  | { kind: "form"; id: string | undefined }
  | { kind: "tracker"; id: string }
  | { kind: "workspace"; id: string }
  | { kind: "invitation"; token: string };

function viewOf(pathname: string, params: RouteParams): View {
  const path = pathname.replace(/\/+$/, "");
  if (params.token !== undefined) return { kind: "invitation", token: params.token };
  if (path.startsWith("/workspaces/")) return { kind: "workspace", id: params.id ?? "" };
  if (path === "/trackers/new") return { kind: "form", id: undefined };
  if (!params.id) return { kind: "list" };
  return path.endsWith("/edit") ? { kind: "form", id: params.id } : { kind: "tracker", id: params.id };
}

export function prefetch(context: PrefetchContext) {
  const view = viewOf(context.url.pathname, context.params);
  if (view.kind === "list") return prefetchList(context);
  if (view.kind === "workspace") return prefetchWorkspace(context);
  if (view.kind === "invitation") return prefetchInvitation(context);
  return view.kind === "form" ? prefetchForm(context) : prefetchTracker(context);
}

export default function TrackersPage({ params }: PageProps) {
  const [pathname] = useLocation();
  const view = viewOf(pathname, params);
  if (view.kind === "list") return <TrackerListPage />;
  if (view.kind === "workspace") return <WorkspacePage key={view.id} id={view.id} />;
  if (view.kind === "invitation") return <InvitationPage token={view.token} />;
  // Keyed: another tracker's address starts its screen afresh.
  return view.kind === "form" ? <TrackerFormPage key={view.id ?? "new"} id={view.id} /> : <TrackerPage key={view.id} id={view.id} />;
}
