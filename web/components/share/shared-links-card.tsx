import { useQuery } from "@tanstack/react-query";
import { ExternalLink, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { Share } from "#src/contract/shares.ts";
import { RelativeTime } from "#web/components/account/relative-time.tsx";
import { SettingsCard } from "#web/components/account/settings-card.tsx";
import { RevokeShareDialog } from "#web/components/share/revoke-share-dialog.tsx";
import { LinkField } from "#web/components/share/share-dialog.tsx";
import { expiryText, shareKindLabel, shareQueries } from "#web/lib/shares.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Badge, Button, Skeleton } from "#web/shared-chunk.ts";


/**
 * Issue 27: the profile's "Shared links" card. Every link the person made (GET /api/shares):
 * what it shows, when it was made, when it expires, when it was last opened, the link with Copy
 * and Open, and Revoke after a confirmation.
 */
export function SharedLinksCard() {
  return (
    <SettingsCard
      id="shared-links"
      title="Shared links"
      description="Read-only links to your searches, comparisons and trackers. Anyone with a link can open it without signing in, until it expires or you revoke it; it never shows your name, e-mail or anything else of yours."
    >
      <ShareList />
    </SettingsCard>
  );
}

function ShareList() {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const shares = useQuery(shareQueries.list(api));
  // One confirmation for the list: it outlives the row it revokes, so focus has somewhere to go.
  const [target, setTarget] = useState<Share | null>(null);
  const [open, setOpen] = useState(false);

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} ref={heading} tabIndex={-1} className="font-medium outline-none">
        Your links
      </h3>
      {shares.isPending ? (
        <Skeleton className="h-16 w-full" role="status" aria-label="Loading your shared links" />
      ) : shares.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your shared links</AlertTitle>
          <AlertDescription>
            <p>{errorText(shares.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void shares.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : shares.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No shared links yet. To make one, open a saved search from your history, a comparison or a tracker, and choose Share.
        </p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {shares.data.map((share) => (
            <li key={share.id}>
              <ShareRow
                share={share}
                onRevoke={() => {
                  setTarget(share);
                  setOpen(true);
                }}
              />
            </li>
          ))}
        </ul>
      )}
      {/* Not loaded lazily (the tokens' is): this page loads Radix's dialog already, for the history's rename and delete. */}
      {target ? (
        <RevokeShareDialog
          share={target}
          open={open}
          onOpenChange={setOpen}
          // Back to the row's button; once the row is gone, to the list.
          focusAfter={() => document.getElementById(revokeButtonId(target)) ?? heading.current}
        />
      ) : null}
    </section>
  );
}

function ShareRow({ share, onRevoke }: { share: Share; onRevoke: () => void }) {
  const expiry = expiryText(share);
  const expired = expiry === "Expired";
  return (
    <div className="space-y-2 px-4 py-3">
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary">{shareKindLabel(share)}</Badge>
            <span className="font-medium break-words">{share.title}</span>
          </p>
          <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <span>
              Created <RelativeTime value={share.createdAt} />
            </span>
            <span className={expired ? "font-medium text-destructive" : undefined}>{expiry}</span>
            <span>
              {share.lastOpenedAt ? (
                <>
                  Last opened <RelativeTime value={share.lastOpenedAt} />
                </>
              ) : (
                "Never opened"
              )}
            </span>
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {expired ? null : (
            <Button asChild variant="outline" size="sm">
              <a href={share.url} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                Open
                <span className="sr-only">{` the link to ${share.title}`}</span>
              </a>
            </Button>
          )}
          <Button
            id={revokeButtonId(share)}
            variant="outline"
            size="sm"
            aria-haspopup="dialog"
            onClick={onRevoke}
          >
            <Trash2 aria-hidden="true" />
            Revoke
            <span className="sr-only">{` the link to ${share.title}`}</span>
          </Button>
        </div>
      </div>
      {expired ? null : <LinkField url={share.url} label={`Link to ${share.title}`} hideLabel />}
    </div>
  );
}

function revokeButtonId(share: Share): string {
  return `revoke-share-${share.id}`;
}
