import { useQuery } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState } from "react";
import type { ApiToken, CreatedToken } from "#src/contract/tokens.ts";
import { RelativeTime } from "#web/components/account/relative-time.tsx";
import { ProNote, SettingsCard } from "#web/components/account/settings-card.tsx";
import { CreatedTokenPanel, NewTokenForm } from "#web/components/tokens/new-token.tsx";
import { tokenQueries } from "#web/lib/token-queries.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, FREE_DAILY_SEARCHES, Skeleton } from "#web/shared-chunk.ts";

// The confirmation (Radix's dialog, a third of this card's code) is loaded when a Revoke button
// is first pointed at or focused, not with the profile page.
const loadRevokeDialog = () => import("#web/components/tokens/revoke-dialog.tsx");
const RevokeDialog = lazy(() => loadRevokeDialog().then((m) => ({ default: m.RevokeDialog })));

/**
 * Issue 11: the profile's "CLI access" card. Personal API tokens for the `aisc` CLI and MCP
 * clients: listed (never the token, only its first characters), created (the token shown once),
 * revoked after a confirmation. Anyone signed in may have them; a token has its owner's limits.
 */
export function CliAccessCard() {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <SettingsCard
      id="cli-access"
      title="CLI access"
      description={
        <>
          Personal API tokens let the <code className="font-mono">aisc</code> command-line tool, your scripts and MCP clients such as Claude Desktop search as
          you, with your plan's limits, until you revoke them. A token cannot create tokens, manage billing or change your account: those need you signed in
          here.
        </>
      }
    >
      <ProNote title="Multi-iteration searches from the CLI need Pro">
        {`On the free plan a token has the free limits: ${FREE_DAILY_SEARCHES} searches a day, one iteration each. `}
        <code className="font-mono whitespace-nowrap">aisc search -n 5</code>, variants and compare need Pro.
      </ProNote>
      <NewTokenForm onCreated={setCreated} />
      {created ? <CreatedTokenPanel key={created.id} created={created} onDone={() => setCreated(null)} /> : null}
      {/* A revoked token is no use: if it is the one just shown, it goes too. */}
      <TokenList onRevoked={(id) => setCreated((shown) => (shown?.id === id ? null : shown))} />
    </SettingsCard>
  );
}

function TokenList({ onRevoked }: { onRevoked: (id: string) => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const tokens = useQuery(tokenQueries.list(api));
  // One confirmation for the list: it outlives the row it revokes, so focus has somewhere to go.
  const [target, setTarget] = useState<ApiToken | null>(null);
  const [open, setOpen] = useState(false);

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} ref={heading} tabIndex={-1} className="font-medium outline-none">
        Your tokens
      </h3>
      {tokens.isPending ? (
        <Skeleton className="h-16 w-full" role="status" aria-label="Loading your tokens" />
      ) : tokens.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your tokens</AlertTitle>
          <AlertDescription>
            <p>{errorText(tokens.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void tokens.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : tokens.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No tokens yet. Create one to sign the aisc command-line tool or an MCP client in as you.</p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {tokens.data.map((token) => (
            <li key={token.id}>
              <TokenRow
                token={token}
                onRevoke={() => {
                  setTarget(token);
                  setOpen(true);
                }}
              />
            </li>
          ))}
        </ul>
      )}
      {target ? (
        <Suspense fallback={null}>
          <RevokeDialog
            token={target}
            open={open}
            onOpenChange={setOpen}
            onRevoked={onRevoked}
            // Back to the row's button; once the row is gone, to the list.
            focusAfter={() => document.getElementById(revokeButtonId(target)) ?? heading.current}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium break-words">{token.name}</p>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span>
            <span className="sr-only">Starts with </span>
            <code className="font-mono text-foreground">{`${token.prefix}…`}</code>
          </span>
          <span>
            Created <RelativeTime value={token.createdAt} />
          </span>
          <span>
            {token.lastUsedAt ? (
              <>
                Last used <RelativeTime value={token.lastUsedAt} />
              </>
            ) : (
              "Never used"
            )}
          </span>
        </p>
        <p className="text-xs text-muted-foreground">
          Scopes: <span className="font-mono">{token.scopes.join(", ")}</span>
        </p>
      </div>
      <Button
        id={revokeButtonId(token)}
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        onClick={onRevoke}
        onPointerEnter={() => void loadRevokeDialog()}
        onFocus={() => void loadRevokeDialog()}
      >
        <Trash2 aria-hidden="true" />
        Revoke
        <span className="sr-only">{` token ${token.name}`}</span>
      </Button>
    </div>
  );
}

function revokeButtonId(token: ApiToken): string {
  return `revoke-token-${token.id}`;
}
