import type { QueryKey, UseQueryResult } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState, type ReactNode } from "react";
import type { RevokeWords } from "#web/components/account/revoke-dialog.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, Button, Skeleton } from "#web/shared-chunk.ts";

// The confirmation (Radix's dialog, a third of a card's code) is loaded when a Revoke button is
// first pointed at or focused, not with the profile page.
const loadRevokeDialog = () => import("#web/components/account/revoke-dialog.tsx");
const RevokeDialog = lazy(() => loadRevokeDialog().then((m) => ({ default: m.RevokeDialog })));

type RevocableListProps<T extends { id: string }> = {
  /** The list's heading, and what the loading and error states call it ("your tokens"). */
  heading: string;
  what: string;
  items: UseQueryResult<T[]>;
  /** The query the items come from: a revoked one leaves it. */
  listKey: QueryKey;
  empty: ReactNode;
  /** A row: the item, with the Revoke button placed where the row wants it. */
  row: (item: T, revokeButton: ReactNode) => ReactNode;
  /** What the Revoke button names after "Revoke", for screen readers ("token Laptop"). */
  revokeLabel: (item: T) => string;
  revoke: (item: T) => Promise<unknown>;
  words: (item: T) => RevokeWords;
  onRevoked?: (id: string) => void;
};

/**
 * A profile card's list of things that can be revoked (CLI tokens, share links): loading, error
 * with Try again, empty, the rows, and one confirmation for the list, which outlives the row it
 * revokes so that focus has somewhere to go (back to the row's button, or to the heading).
 */
export function RevocableList<T extends { id: string }>(props: RevocableListProps<T>) {
  const { heading: title, what, items, listKey, empty, row, revokeLabel, revoke, words, onRevoked } = props;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const buttonId = (item: T) => `revoke-${headingId}-${item.id}`;

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} ref={heading} tabIndex={-1} className="font-medium outline-none">
        {title}
      </h3>
      {items.isPending ? (
        <Skeleton className="h-16 w-full" role="status" aria-label={`Loading ${what}`} />
      ) : items.isError ? (
        <Alert variant="destructive">
          <AlertTitle>{`Could not load ${what}`}</AlertTitle>
          <AlertDescription>
            <p>{errorText(items.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void items.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : items.data.length === 0 ? (
        empty
      ) : (
        <ul className="divide-y rounded-lg border">
          {items.data.map((item) => (
            <li key={item.id}>
              {row(
                item,
                <Button
                  id={buttonId(item)}
                  variant="outline"
                  size="sm"
                  aria-haspopup="dialog"
                  onClick={() => {
                    setTarget(item);
                    setOpen(true);
                  }}
                  onPointerEnter={() => void loadRevokeDialog()}
                  onFocus={() => void loadRevokeDialog()}
                >
                  <Trash2 aria-hidden="true" />
                  Revoke
                  <span className="sr-only">{` ${revokeLabel(item)}`}</span>
                </Button>,
              )}
            </li>
          ))}
        </ul>
      )}
      {target ? (
        <Suspense fallback={null}>
          <RevokeDialog
            id={target.id}
            listKey={listKey}
            revoke={() => revoke(target)}
            words={words(target)}
            open={open}
            onOpenChange={setOpen}
            onRevoked={onRevoked}
            focusAfter={() => document.getElementById(buttonId(target)) ?? heading.current}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
