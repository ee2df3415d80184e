import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link2, Share2 } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "wouter";
import type { Share } from "#src/contract/shares.ts";
import { visibleText } from "#src/core/display-text.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { CopyField } from "#web/components/copy-field.tsx";
import { EXPIRY_CHOICES, expiryChoiceLabel, expiryText, type ExpiryChoice, shareQueries, type ShareTarget } from "#web/lib/shares.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, NativeSelect, NativeSelectOption } from "#web/shared-chunk.ts";

/**
 * The "Share" control of a saved search, a comparison and a tracker; not printed.
 * The dialog is not loaded lazily: the pages that show it load Radix's dialog already (a result's
 * answer, the tracker's forms), and a chunk of its own would weigh on every first load (ADR 006).
 */
export function ShareButton({ target }: { target: ShareTarget }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" size="sm" variant="outline" className="print:hidden" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Share2 aria-hidden="true" />
        Share
      </Button>
      <ShareDialog target={target} open={open} onOpenChange={setOpen} />
    </>
  );
}

type ShareDialogProps = { target: ShareTarget; open: boolean; onOpenChange: (open: boolean) => void };

/**
 * "Share …": says what the link shows and that anyone holding it can open it without
 * signing in, takes its lifetime (and, for a tracker, live or frozen), creates it (POST
 * /api/shares) and shows it with Copy. The API's refusal (Pro, a search gone) is shown in its words.
 */
function ShareDialog({ target, open, onOpenChange }: ShareDialogProps) {
  const queryClient = useQueryClient();
  const ids = { expiry: useId(), report: useId() };
  const [days, setDays] = useState<ExpiryChoice>(null);
  const [frozen, setFrozen] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      api.createShare({
        kind: target.kind,
        id: target.id,
        ...(days === null ? {} : { expiresInDays: days }),
        ...(target.kind === "tracker" ? { frozen } : {}),
        ...(target.kind === "compare" ? { variants: target.variants } : {}),
      }),
    onSuccess: (share) => {
      const key = shareQueries.list(api).queryKey;
      if (queryClient.getQueryData(key)) queryClient.setQueryData(key, (list) => list && [share, ...list]);
      else void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const created: Share | undefined = create.data;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        // Opened again, it offers a new link.
        if (!next) create.reset();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="break-words">{`Share “${visibleText(target.title)}”`}</DialogTitle>
          <DialogDescription>{whatItShows(target, frozen)}</DialogDescription>
        </DialogHeader>
        <p className="text-sm">
          <strong>Anyone with the link can see it without signing in.</strong> It does not show your name, your e-mail or anything else of yours, and nothing on
          it can be changed. Revoke it from your profile whenever you like.
        </p>
        {created ? (
          <div className="space-y-2">
            <LinkField url={created.url} label="Link" autoFocus />
            <p className="text-sm text-muted-foreground">
              <span>{`${expiryText(created)}.`}</span>{" "}
              <Link href="/user/profile#shared-links" className="text-foreground underline underline-offset-2">
                Your shared links
              </Link>
            </p>
          </div>
        ) : (
          <form
            id={ids.report}
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate();
            }}
          >
            {target.kind === "tracker" ? (
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">What the link shows</legend>
                <ReportChoice name={`${ids.report}-frozen`} checked={!frozen} onChange={() => setFrozen(false)} label="Live report">
                  The tracker as it stands whenever the link is opened: new runs, trends and alerts appear as they come.
                </ReportChoice>
                <ReportChoice name={`${ids.report}-frozen`} checked={frozen} onChange={() => setFrozen(true)} label="Frozen snapshot">
                  The tracker as it stands now: the runs finished so far, and nothing after.
                </ReportChoice>
              </fieldset>
            ) : null}
            <div className="space-y-1.5">
              <label htmlFor={ids.expiry} className="text-sm font-medium">
                Link expires after
              </label>
              <NativeSelect
                id={ids.expiry}
                value={days === null ? "" : String(days)}
                onChange={(event) => setDays(event.target.value === "" ? null : (Number(event.target.value) as ExpiryChoice))}
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <NativeSelectOption key={String(choice)} value={choice === null ? "" : String(choice)}>
                    {expiryChoiceLabel(choice)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            {create.isError ? (
              <Alert variant="destructive">
                <AlertTitle>Could not create the link</AlertTitle>
                <AlertDescription>{errorText(create.error)}</AlertDescription>
              </Alert>
            ) : null}
          </form>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{created ? "Done" : "Cancel"}</Button>
          </DialogClose>
          {created ? null : (
            <Button type="submit" form={ids.report} disabled={create.isPending}>
              <Link2 aria-hidden="true" />
              {create.isPending ? "Creating..." : "Create link"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function whatItShows(target: ShareTarget, frozen: boolean): string {
  switch (target.kind) {
    case "search":
      return "The link shows this search's results, with every tab, read-only.";
    case "compare":
      return `The link shows this comparison of the query with its ${target.variants.length === 1 ? "variant" : `${target.variants.length} variants`}, as their latest saved searches stand now.`;
    case "tracker":
      return frozen
        ? "The link shows this tracker's trends, sources, alerts, changes and runs as they stand now."
        : "The link shows this tracker's trends, sources, alerts, changes and runs, kept up to date.";
  }
}

function ReportChoice({ name, checked, onChange, label, children }: { name: string; checked: boolean; onChange: () => void; label: string; children: string }) {
  const ids = { label: useId(), hint: useId() };
  return (
    <label className="flex items-start gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary">
      <input
        type="radio"
        name={name}
        className="mt-0.5 size-4 accent-primary"
        checked={checked}
        onChange={onChange}
        aria-labelledby={ids.label}
        aria-describedby={ids.hint}
      />
      <span className="space-y-0.5">
        <span id={ids.label} className="block font-medium">
          {label}
        </span>
        <span id={ids.hint} className="block text-muted-foreground">
          {children}
        </span>
      </span>
    </label>
  );
}

/** A share link to copy: the dialog's new link and each row of the profile's list. */
export function LinkField({ url, label, hideLabel = false, autoFocus = false }: { url: string; label: string; hideLabel?: boolean; autoFocus?: boolean }) {
  return <CopyField value={url} label={label} noun="link" hideLabel={hideLabel} autoFocus={autoFocus} emphasis="outline" copyLabel={label.toLowerCase()} />;
}
