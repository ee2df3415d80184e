import { CheckCheck, CircleDashed, CircleMinus, LoaderCircle, OctagonX, TriangleAlert } from "lucide-react";
import type { TrackerRunStatus } from "#src/contract/trackers.ts";
import { statusText } from "#web/lib/trackers.ts";
import { Badge } from "#web/shared-chunk.ts";

const LOOK: Record<TrackerRunStatus, { icon: typeof CheckCheck; variant: "default" | "secondary" | "destructive" | "outline"; spin?: boolean }> = {
  queued: { icon: CircleDashed, variant: "outline" },
  running: { icon: LoaderCircle, variant: "secondary", spin: true },
  completed: { icon: CheckCheck, variant: "secondary" },
  partial: { icon: TriangleAlert, variant: "outline" },
  failed: { icon: OctagonX, variant: "destructive" },
  skipped: { icon: CircleMinus, variant: "outline" },
};

/** A run's status as a badge, its word always written (not colour alone). */
export function RunStatus({ status }: { status: TrackerRunStatus }) {
  const { icon: Icon, variant, spin } = LOOK[status];
  return (
    <Badge variant={variant} data-testid="run-status">
      <Icon className={spin ? "animate-spin" : undefined} aria-hidden="true" />
      {statusText(status)}
    </Badge>
  );
}
