import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { ApiToken, CreatedToken } from "#src/contract/tokens.ts";
import { visibleText } from "#src/core/display-text.ts";
import { RelativeTime } from "#web/components/account/relative-time.tsx";
import { RevocableList } from "#web/components/account/revocable-list.tsx";
import { ProNote, SettingsCard } from "#web/components/account/settings-card.tsx";
import { CreatedTokenPanel, NewTokenForm } from "#web/components/tokens/new-token.tsx";
import { tokenQueries } from "#web/lib/token-queries.ts";
import { api, FREE_DAILY_SEARCHES } from "#web/shared-chunk.ts";

/**
 * The profile's "CLI access" card. Personal API tokens for the `aisc` CLI and MCP
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
  const tokens = useQuery(tokenQueries.list(api));
  return (
    <RevocableList
      heading="Your tokens"
      what="your tokens"
      items={tokens}
      listKey={tokenQueries.list(api).queryKey}
      empty={<p className="text-sm text-muted-foreground">No tokens yet. Create one to sign the aisc command-line tool or an MCP client in as you.</p>}
      row={(token, revokeButton) => <TokenRow token={token} revokeButton={revokeButton} />}
      revokeLabel={(token) => `token ${visibleText(token.name)}`}
      revoke={(token) => api.revokeToken(token.id)}
      words={(token) => ({
        title: `Revoke “${visibleText(token.name)}”?`,
        description:
          "Whatever uses it (the aisc CLI, a script, an MCP client) is signed out at once. This cannot be undone: to sign in again, create a new token.",
        keep: "Keep token",
        confirm: "Revoke token",
        failed: "Could not revoke the token",
        done: { title: "Token revoked", description: `“${visibleText(token.name)}” no longer works: whatever used it is signed out.` },
      })}
      onRevoked={onRevoked}
    />
  );
}

function TokenRow({ token, revokeButton }: { token: ApiToken; revokeButton: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium break-words">{visibleText(token.name)}</p>
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
      {revokeButton}
    </div>
  );
}
