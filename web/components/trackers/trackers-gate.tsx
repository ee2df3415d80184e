import type { ReactNode } from "react";
import { useProGate } from "#web/hooks/use-pro-gate.ts";
import { Skeleton } from "#web/shared-chunk.ts";

/**
 * The trackers' pages are Pro, behind the product's Pro gate (spec §5): a free or signed-out
 * visitor goes to /upgrade, where Pro and its trackers are offered; a Pro user sees the content.
 */
export function TrackersGate({ children }: { children: ReactNode }) {
  const ready = useProGate(null);
  return ready ? children : <Skeleton className="h-64 w-full" aria-label="Loading" role="status" />;
}
