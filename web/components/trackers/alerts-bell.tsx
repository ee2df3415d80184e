import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bell, CheckCheck, TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Link } from "wouter";
import { formatDate } from "#src/core/dates.ts";
import { visibleText } from "#src/core/display-text.ts";
import { formatInZone } from "#src/core/tracker-timing.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { alertRuleNote, alertText, EARLIER_RULE_SHORT, NO_INBOX_ALERTS } from "#web/lib/alert-words.ts";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu.tsx";
import { api, Button, providerCatalogue } from "#web/shared-chunk.ts";

/** A fixed id for the trigger, which the server renders (see the user menu's). */
const TRIGGER_ID = "alerts-bell-trigger";

/** "Alerts, 3 unread": the bell's name, which the badge shows as a number. */
export function bellLabel(unread: number | undefined): string {
  if (unread === undefined) return "Alerts";
  return `Alerts, ${unread === 0 ? "none" : unread} unread`;
}

/**
 * The header's bell: the unread alerts and missed runs of a Pro user's trackers as a badge, opening
 * the missed runs, then the newest alerts, in words (the tracker page's wording), each linking to its tracker, and "Mark all
 * read". Its own chunk: only signed-in Pro visitors download it.
 */
export function AlertsBell() {
  const queryClient = useQueryClient();
  const inbox = useQuery(trackerQueries.inbox(api));
  const markAll = useMutation({
    mutationFn: () => api.markAlertsRead(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trackerQueries.inbox(api).queryKey }),
  });
  // Marks the trigger once it is interactive (it hydrates after the rest of the page).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const unread = inbox.data?.unread;
  const alerts = inbox.data?.alerts ?? [];
  const missed = inbox.data?.missed ?? [];
  // Not modal: a modal menu hides the rest of the page from assistive technology (axe: aria-hidden-focus).
  return (
    <DropdownMenu modal={false} onOpenChange={(open) => open && void inbox.refetch()}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" id={TRIGGER_ID} aria-label={bellLabel(unread)} data-ready={ready ? "" : undefined}>
          <Bell aria-hidden="true" />
          {unread ? (
            <span
              aria-hidden="true"
              data-testid="alerts-badge"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[0.625rem] leading-none font-semibold text-white tabular-nums"
            >
              {unread > 99 ? "99+" : unread}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-[min(24rem,calc(100vw-2rem))]" aria-labelledby={TRIGGER_ID}>
        <DropdownMenuLabel className="flex items-baseline justify-between gap-2">
          <span>Alerts</span>
          <span className="text-xs font-normal text-muted-foreground">{unread ? `${unread} unread` : "All read"}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {inbox.isError && !inbox.data ? (
          <p className="px-2 py-3 text-sm text-muted-foreground">The alerts could not be loaded.</p>
        ) : alerts.length === 0 && missed.length === 0 ? (
          <p className="px-2 py-3 text-sm text-muted-foreground">{inbox.isPending ? "Loading…" : NO_INBOX_ALERTS}</p>
        ) : (
          <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
            {/* A run that did not happen comes first: the schedule may have stopped. */}
            {missed.map((item) => (
              <InboxItem key={item.id} trackerId={item.trackerId} trackerName={item.trackerName} at={item.dueAt} read={item.read} testId="inbox-missed-run">
                <span className="flex items-start gap-1.5 text-sm break-words whitespace-normal">
                  <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
                  <span>
                    {item.read ? null : <span className="sr-only">Unread: </span>}
                    {`The run due ${formatInZone(item.dueAt, item.timezone)} did not happen: ${visibleText(item.reason)}`}
                  </span>
                </span>
              </InboxItem>
            ))}
            {alerts.map((alert) => (
              <InboxItem key={alert.id} trackerId={alert.trackerId} trackerName={alert.trackerName} at={alert.at} read={alert.read} testId="inbox-alert">
                <span className="text-sm break-words whitespace-normal">
                  {alert.read ? null : <span className="sr-only">Unread: </span>}
                  {alertText(alert, providerCatalogue[alert.provider].name)}
                </span>
                {alertRuleNote(alert) ? <span className="text-xs text-muted-foreground">{EARLIER_RULE_SHORT}</span> : null}
              </InboxItem>
            ))}
          </div>
        )}
        <DropdownMenuSeparator />
        {/* The panel stays open: the person sees the alerts turn read. */}
        <DropdownMenuItem
          disabled={!unread || markAll.isPending}
          onSelect={(event) => {
            event.preventDefault();
            markAll.mutate();
          }}
        >
          <CheckCheck aria-hidden="true" />
          Mark all read
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** One line of the bell: its tracker's name, when, unread or not, and what happened; it opens the tracker. */
function InboxItem({
  trackerId,
  trackerName,
  at,
  read,
  testId,
  children,
}: {
  trackerId: string;
  trackerName: string;
  at: string;
  read: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <DropdownMenuItem asChild>
      <Link href={`/trackers/${trackerId}`} className="flex flex-col items-start gap-0.5" data-testid={testId}>
        <span className="flex w-full items-center gap-2 text-xs text-muted-foreground">
          {read ? null : <span className="size-2 shrink-0 rounded-full bg-destructive" aria-hidden="true" />}
          <span className="min-w-0 truncate font-medium text-foreground">{visibleText(trackerName)}</span>
          <span className="ml-auto shrink-0">{formatDate(at)}</span>
        </span>
        {children}
      </Link>
    </DropdownMenuItem>
  );
}
