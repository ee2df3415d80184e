import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import type { CreateTracker, Tracker } from "#src/contract/trackers.ts";
import { visibleText } from "#src/core/display-text.ts";
import { DeleteTracker } from "#web/components/trackers/delete-tracker.tsx";
import { TrackerForm } from "#web/components/trackers/tracker-form.tsx";
import { TrackerMissing } from "#web/components/trackers/tracker-missing.tsx";
import { WebhookSecretDialog, withoutSecret } from "#web/components/trackers/tracker-webhook.tsx";
import { prefetchTrackersAccess, TrackersGate } from "#web/components/trackers/trackers-gate.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { changesOf, draftOf, newDraft, prefilledDraft } from "#web/lib/tracker-form.ts";
import { readTrackerPrefill } from "#web/lib/tracker-prefill.ts";
import { LIST_KEY, TRACKERS_KEY, trackerQueries } from "#web/lib/tracker-queries.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, providerIds, queries, Skeleton, toast } from "#web/shared-chunk.ts";
import { roleAtLeast, roleRequired, type Workspace } from "#src/contract/workspaces.ts";
import { chosenWorkspace, trackersPath, WORKSPACE_PARAM, useWorkspaces } from "#web/lib/workspaces.ts";

/** The form arrives filled: the profile's brand lens and the connected providers (new), or the tracker (edit). */
export async function prefetchForm({ queryClient, api: serverApi, params }: PrefetchContext) {
  const { open } = await prefetchTrackersAccess(queryClient, serverApi);
  if (!open) return;
  await Promise.all([
    params.id ? queryClient.prefetchQuery(trackerQueries.one(serverApi, params.id)) : queryClient.prefetchQuery(workbenchQueries.brandLens(serverApi)),
    queryClient.prefetchQuery(queries.status(serverApi)),
  ]);
}

/** /trackers/new and /trackers/{id}/edit: a tracker's form, Pro only. */
export function TrackerFormPage({ id }: { id: string | undefined }) {
  const title = id ? "Edit tracker" : "New tracker";
  const [params] = useSearchParams();
  const { data: workspaces } = useWorkspaces();
  const workspace = workspaces ? chosenWorkspace(workspaces, params.get(WORKSPACE_PARAM)) : undefined;
  return (
    <main className="container mx-auto w-full max-w-4xl flex-1 space-y-6 px-4 py-8">
      <title>{`${title} · AI Search Comparison`}</title>
      <header className="space-y-3">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href={id ? `/trackers/${id}` : trackersPath(workspace)}>
            <ArrowLeft aria-hidden="true" />
            {id ? "Back to the tracker" : "Back to Trackers"}
          </Link>
        </Button>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {!id && workspace && !workspace.personal ? <p className="text-muted-foreground">{`In ${workspace.name}`}</p> : null}
      </header>
      <TrackersGate>
        {id ? (
          <EditTracker id={id} />
        ) : workspace ? (
          <NewTracker workspace={workspace} />
        ) : (
          <Skeleton className="h-96 w-full" aria-label="Loading the form" role="status" />
        )}
      </TrackersGate>
    </main>
  );
}

function NewTracker({ workspace }: { workspace: Workspace }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  // Saved with a webhook: its secret is shown once before the page moves on.
  const [revealed, setRevealed] = useState<Tracker | null>(null);
  const lens = useQuery(workbenchQueries.brandLens(api));
  const { data: status } = useQuery(queries.status(api));
  // "Track these questions every week" from a finished search: its questions, and its lens.
  const [params] = useSearchParams();
  const prefill = readTrackerPrefill(params);
  // The form starts from the lens: it waits for it (a failed read starts it empty).
  if (lens.isPending) return <Skeleton className="h-96 w-full" aria-label="Loading the form" role="status" />;
  if (!roleAtLeast(workspace.role, "editor")) return <ReadOnly workspace={workspace} />;
  const connected = providerIds.filter((provider) => (status ? status.modes[provider] !== "off" : true));

  async function create(input: CreateTracker) {
    try {
      const tracker = await api.createTracker({ ...input, workspaceId: workspace.id });
      queryClient.setQueryData(trackerQueries.one(api, tracker.id).queryKey, withoutSecret(tracker));
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
      toast({ title: "Tracker created", description: `${visibleText(tracker.name)}: ${tracker.scheduleText}.` });
      if (tracker.webhook?.secret) setRevealed(tracker);
      else navigate(`/trackers/${tracker.id}`);
    } catch (error) {
      toast({ variant: "destructive", title: "Could not create the tracker", description: errorText(error) });
      throw error;
    }
  }

  const draft = newDraft(lens.data, connected, "UTC");
  const initial = prefill ? prefilledDraft(draft, prefill, lens.data) : draft;
  return (
    <>
      <TrackerForm initial={initial} status={status} submitLabel="Create tracker" onSave={create} localTimeZone />
      {revealed ? <WebhookSecretDialog tracker={revealed} onDone={() => navigate(`/trackers/${revealed.id}`)} /> : null}
    </>
  );
}

function EditTracker({ id }: { id: string }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { data: tracker, error, isPending } = useQuery(trackerQueries.one(api, id));
  const { data: status } = useQuery(queries.status(api));
  const [revealed, setRevealed] = useState<Tracker | null>(null);
  const { data: workspaces } = useWorkspaces();
  if (isPending) return <Skeleton className="h-96 w-full" aria-label="Loading the tracker" role="status" />;
  if (error) return <TrackerMissing error={error} />;
  const workspace = workspaces?.find((one) => one.id === tracker.workspaceId);
  if (workspace && !roleAtLeast(workspace.role, "editor")) return <ReadOnly workspace={workspace} />;

  async function save(input: CreateTracker) {
    if (!tracker) return;
    const change = changesOf(tracker, input);
    try {
      const saved = Object.keys(change).length > 0 ? await api.updateTracker(id, change) : tracker;
      queryClient.setQueryData(trackerQueries.one(api, id).queryKey, withoutSecret(saved));
      await queryClient.invalidateQueries({ queryKey: TRACKERS_KEY });
      toast({ title: "Tracker saved", description: `${saved.name}: ${saved.scheduleText}.` });
      // A new or rotated webhook secret is shown once before the page moves on.
      if (saved.webhook?.secret) setRevealed(saved);
      else navigate(`/trackers/${id}`);
    } catch (failure) {
      toast({ variant: "destructive", title: "Could not save the tracker", description: errorText(failure) });
      throw failure;
    }
  }

  return (
    <>
      {/* Keyed by the saved version: a save elsewhere starts the form again from it. */}
      <TrackerForm
        key={tracker.updatedAt}
        initial={draftOf(tracker)}
        status={status}
        saved={tracker}
        submitLabel="Save changes"
        onSave={save}
        localTimeZone={false}
      >
        <DeleteTracker tracker={tracker} className="sm:ml-auto" onDeleted={() => navigate(trackersPath(workspace))} />
      </TrackerForm>
      {revealed ? <WebhookSecretDialog tracker={revealed} onDone={() => navigate(`/trackers/${id}`)} /> : null}
    </>
  );
}

/** A viewer's way here: they read the workspace's trackers and change none (the server's words). */
function ReadOnly({ workspace }: { workspace: Workspace }) {
  return (
    <Alert role="alert">
      <AlertTitle>{`You're a viewer in ${workspace.name}`}</AlertTitle>
      <AlertDescription>{roleRequired("editor")}</AlertDescription>
    </Alert>
  );
}
