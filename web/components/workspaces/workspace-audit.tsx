import { useInfiniteQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useId } from "react";
import type { AuditEntry, Workspace } from "#src/contract/workspaces.ts";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { WORKSPACES_KEY } from "#web/lib/workspaces.ts";
import { api, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Skeleton } from "#web/shared-chunk.ts";

/** Entries in one page of the table. */
const PAGE = 25;

/** Who did what (owners and admins): newest first, a page at a time, and the whole log as CSV. */
export function WorkspaceAudit({ workspace }: { workspace: Workspace }) {
  const headingId = useId();
  const audit = useInfiniteQuery({
    queryKey: [...WORKSPACES_KEY, "audit", workspace.id],
    queryFn: ({ pageParam }) => api.getWorkspaceAudit(workspace.id, { limit: PAGE, ...(pageParam ? { before: pageParam } : {}) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore,
  });
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader className="flex flex-wrap items-start justify-between gap-2">
        <div className="space-y-1.5">
          <CardTitle id={headingId} role="heading" aria-level={2}>
            Audit log
          </CardTitle>
          <CardDescription>Who did what here, newest first.</CardDescription>
        </div>
        <Button asChild size="sm" variant="outline">
          <a href={`/api/workspaces/${encodeURIComponent(workspace.id)}/audit.csv`} download>
            <Download aria-hidden="true" />
            Download CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="space-y-3">
        {audit.isPending ? <Skeleton className="h-32 w-full" aria-label="Loading the audit log" role="status" /> : null}
        {audit.error ? <p className="text-sm text-destructive">{errorText(audit.error)}</p> : null}
        {audit.isSuccess && entries.length === 0 ? <p className="text-sm text-muted-foreground">Nothing yet.</p> : null}
        {entries.length > 0 ? (
          <Table aria-labelledby={headingId}>
            <TableHeader>
              <TableRow>
                <TableHead>When (UTC)</TableHead>
                <TableHead>Who</TableHead>
                <TableHead>What</TableHead>
                <TableHead>On</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {entries.map((entry) => (
                <TableRow key={entry.id} data-testid="audit-entry">
                  <TableCell className="whitespace-nowrap">{entry.at.slice(0, 16).replace("T", " ")}</TableCell>
                  <TableCell className="whitespace-normal">
                    {entry.actor.username}
                    <span className="block text-xs text-muted-foreground">{viaText(entry)}</span>
                  </TableCell>
                  <TableCell className="whitespace-nowrap font-mono text-xs">{entry.action}</TableCell>
                  <TableCell className="min-w-40 whitespace-normal break-words">{entry.target}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {audit.hasNextPage ? (
          <Button type="button" variant="outline" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
            {audit.isFetchingNextPage ? "Loading..." : "Load more"}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

function viaText(entry: AuditEntry): string {
  return entry.via === "token" && entry.token ? `with API token ${entry.token.prefix}…` : "signed in";
}
