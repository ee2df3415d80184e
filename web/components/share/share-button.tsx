import { Share2 } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { ShareTarget } from "#web/lib/shares.ts";
import { Button } from "#web/shared-chunk.ts";

// The dialog (Radix's, and the create form) loads when the button is first pointed at or
// focused, not with the page that shows the button.
const loadShareDialog = () => import("#web/components/share/share-dialog.tsx");
const ShareDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareDialog })));

/** The "Share" control of a saved search, a comparison and a tracker (issue 27); not printed. */
export function ShareButton({ target }: { target: ShareTarget }) {
  const [open, setOpen] = useState(false);
  // Mounted on first use and kept: Radix gives focus back to the button when it closes.
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="print:hidden"
        aria-haspopup="dialog"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
        onPointerEnter={() => void loadShareDialog()}
        onFocus={() => void loadShareDialog()}
      >
        <Share2 aria-hidden="true" />
        Share
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <ShareDialog target={target} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
