import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import type { Share } from "#src/contract/shares.ts";
import { visibleText } from "#src/core/display-text.ts";
import { RelativeTime } from "#web/components/account/relative-time.tsx";
import { RevocableList } from "#web/components/account/revocable-list.tsx";
import { SettingsCard } from "#web/components/account/settings-card.tsx";
import { LinkField } from "#web/components/share/share-dialog.tsx";
import { expiryText, shareKindLabel, shareQueries } from "#web/lib/shares.ts";
import { api, Badge, Button } from "#web/shared-chunk.ts";

/**
 * The profile's "Shared links" card. Every link the person made (GET /api/shares):
 * what it shows, when it was made, when it expires, when it was last opened, the link with Copy
 * and Open, and Revoke after a confirmation.
 */
export function SharedLinksCard() {
  const shares = useQuery(shareQueries.list(api));
  return (
    <SettingsCard
      id="shared-links"
      title="Shared links"
      description="Read-only links to your searches, comparisons and trackers. Anyone with a link can open it without signing in, until it expires or you revoke it; it never shows your name, e-mail or anything else of yours."
    >
      <RevocableList
        heading="Your links"
        what="your shared links"
        items={shares}
        listKey={shareQueries.list(api).queryKey}
        empty={
          <p className="text-sm text-muted-foreground">
            No shared links yet. To make one, open a saved search from your history, a comparison or a tracker, and choose Share.
          </p>
        }
        row={(share, revokeButton) => <ShareRow share={share} revokeButton={revokeButton} />}
        revokeLabel={(share) => `the link to ${visibleText(share.title)}`}
        revoke={(share) => api.revokeShare(share.id)}
        words={(share) => ({
          title: `Revoke the link to “${visibleText(share.title)}”?`,
          description: "Whoever has it can no longer open it: it answers “not found” at once. This cannot be undone: to share it again, create a new link.",
          keep: "Keep link",
          confirm: "Revoke link",
          failed: "Could not revoke the link",
          done: { title: "Link revoked", description: `The link to “${visibleText(share.title)}” no longer opens.` },
        })}
      />
    </SettingsCard>
  );
}

function ShareRow({ share, revokeButton }: { share: Share; revokeButton: ReactNode }) {
  const expiry = expiryText(share);
  const expired = expiry === "Expired";
  return (
    <div className="space-y-2 px-4 py-3">
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary">{shareKindLabel(share)}</Badge>
            <span className="font-medium break-words">{visibleText(share.title)}</span>
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
          {/* An expired link opens nothing: only Revoke is left, to tidy the list. */}
          {expired ? null : (
            <Button asChild variant="outline" size="sm">
              <a href={share.url} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                Open
                <span className="sr-only">{` the link to ${visibleText(share.title)}`}</span>
              </a>
            </Button>
          )}
          {revokeButton}
        </div>
      </div>
      {expired ? null : <LinkField url={share.url} label={`Link to ${visibleText(share.title)}`} hideLabel />}
    </div>
  );
}
