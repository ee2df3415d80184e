import { type QueryClient, useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "wouter";
import type { ApiClient } from "#src/client/api.ts";
import type { Workspace } from "#src/contract/workspaces.ts";
import { trackersOpen, workspaceQueries, useWorkspaces } from "#web/lib/workspaces.ts";
import { api, queries, Skeleton } from "#web/shared-chunk.ts";

/**
 * The trackers' pages are Pro, behind the product's Pro gate (spec §5): a free or signed-out
 * visitor goes to /upgrade, where Pro and its trackers are offered; a Pro user sees the content,
 * and so does a free member of another's workspace (ADR 071: its Pro comes from its owners).
 */
export function TrackersGate({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const { data: pro } = useQuery(queries.proStatus(api));
  const { data: user } = useQuery(queries.user(api));
  const workspaces = useWorkspaces();
  const open = trackersOpen(pro?.isPro, workspaces.data);
  const decided = pro !== undefined && (pro.isPro || user === null || workspaces.isSuccess || workspaces.isError);
  const left = useRef(false);
  useEffect(() => {
    if (left.current || !decided || open) return;
    left.current = true;
    navigate("/upgrade", { replace: true });
  }, [decided, open, navigate]);
  return open ? children : <Skeleton className="h-64 w-full" aria-label="Loading" role="status" />;
}

/** On the server: whether the trackers are open to the reader, and their workspaces (what the gate above reads). */
export async function prefetchTrackersAccess(queryClient: QueryClient, serverApi: ApiClient): Promise<{ open: boolean; workspaces: Workspace[] }> {
  const [pro, user] = await Promise.all([queryClient.ensureQueryData(queries.proStatus(serverApi)), queryClient.ensureQueryData(queries.user(serverApi))]);
  if (!user) return { open: false, workspaces: [] };
  const workspaces = await queryClient.ensureQueryData(workspaceQueries.list(serverApi)).catch(() => []);
  return { open: trackersOpen(pro.isPro, workspaces), workspaces };
}
