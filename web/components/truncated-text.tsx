import { useState } from "react";
import { cn } from "#web/lib/utils.ts";

/**
 * Text kept to one line with an ellipsis where space is short (a phone): the whole text shows on
 * hover (its title), and a tap or a key press unfolds it in place, and folds it again.
 */
export function TruncatedText({ text, className }: { text: string; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <button
      type="button"
      title={text}
      aria-expanded={open}
      onClick={() => setOpen((was) => !was)}
      className={cn(
        "block max-w-full min-w-0 cursor-default rounded-sm text-left focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
        open ? "break-words whitespace-normal" : "truncate",
        className,
      )}
    >
      {text}
    </button>
  );
}
