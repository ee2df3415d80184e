import { Check, Copy } from "lucide-react";
import { useId, useRef, useState } from "react";
import { copyText } from "#web/lib/clipboard.ts";
import { Button, Input } from "#web/shared-chunk.ts";

type CopyState = "idle" | "copied" | "manual";

export type CopyFieldProps = {
  value: string;
  label: string;
  /** What the value is, in the words shown when the clipboard is not available ("the link is selected…"). */
  noun: "link" | "token" | "secret";
  hideLabel?: boolean;
  /** Focused (and so selected) as it appears: what the person came for. */
  autoFocus?: boolean;
  describedBy?: string;
  /** The Copy button's emphasis: the one thing to do next ("default"), or one of several ("outline"). */
  emphasis?: "default" | "outline";
  /** Said to screen readers after "Copy" where a page has several fields. */
  copyLabel?: string;
};

/**
 * A value to copy (a new API token, a share link): a read-only field, selected when focused, a
 * Copy button, and what copying did; where the clipboard is not available the value is selected
 * for Ctrl+C.
 */
export function CopyField({ value, label, noun, hideLabel = false, autoFocus = false, describedBy, emphasis = "default", copyLabel }: CopyFieldProps) {
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
          value={value}
          spellCheck={false}
          autoFocus={autoFocus}
          className={noun === "link" ? "bg-background font-mono text-xs" : "bg-background font-mono"}
          aria-describedby={describedBy}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          type="button"
          variant={emphasis}
          className="shrink-0"
          onClick={async () => setCopy((await copyText(value, field.current)) ? "copied" : "manual")}
        >
          {copy === "copied" ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copy === "copied" ? "Copied" : "Copy"}
          {copyLabel ? <span className="sr-only">{` ${copyLabel}`}</span> : null}
        </Button>
      </div>
      <p role="status" className="text-sm empty:hidden">
        {copy === "copied"
          ? "Copied to the clipboard."
          : copy === "manual"
            ? `The clipboard is not available here: the ${noun} is selected, press Ctrl+C (⌘C on a Mac) to copy it.`
            : ""}
      </p>
    </div>
  );
}
