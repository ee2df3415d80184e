import { Check, Copy } from "lucide-react";
import { useId, useRef, useState } from "react";
import { copyText } from "#web/lib/clipboard.ts";
import { Button, Input } from "#web/shared-chunk.ts";

type CopyState = "idle" | "copied" | "manual";

/**
 * A share link in a read-only field (selected when focused) with a Copy button and what copying
 * did: the dialog's new link and each row of the profile's list.
 */
export function LinkField({ url, label, hideLabel = false, autoFocus = false }: { url: string; label: string; hideLabel?: boolean; autoFocus?: boolean }) {
  const fieldId = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");
  return (
    <div className="space-y-1.5">
      <label htmlFor={fieldId} className={hideLabel ? "sr-only" : "text-sm font-medium"}>
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          ref={field}
          id={fieldId}
          readOnly
          value={url}
          spellCheck={false}
          autoFocus={autoFocus}
          className="bg-background font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" variant="outline" className="shrink-0" onClick={async () => setCopy((await copyText(url, field.current)) ? "copied" : "manual")}>
          {copy === "copied" ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copy === "copied" ? "Copied" : "Copy"}
          <span className="sr-only">{` ${label.toLowerCase()}`}</span>
        </Button>
      </div>
      <p role="status" className="text-sm empty:hidden">
        {copy === "copied"
          ? "Copied to the clipboard."
          : copy === "manual"
            ? "The clipboard is not available here: the link is selected, press Ctrl+C (⌘C on a Mac) to copy it."
            : ""}
      </p>
    </div>
  );
}
