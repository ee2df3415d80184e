import { useMutation } from "@tanstack/react-query";
import { LoaderCircle, Send } from "lucide-react";
import type { Tracker } from "#src/contract/trackers.ts";
import { WEBHOOK_VERIFY_NODE, WEBHOOK_VERIFY_WORDS, webhookTestInWords } from "#src/core/webhooks.ts";
import { CopyField } from "#web/components/copy-field.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { api, Button } from "#web/shared-chunk.ts";

/** Send test: a `test` event posted to the saved webhook now, and what came of it in words. */
export function SendTest({ trackerId, note }: { trackerId: string; note?: string }) {
  const test = useMutation({ mutationFn: () => api.testTrackerWebhook(trackerId) });
  const outcome = test.data ? webhookTestInWords(test.data) : test.error ? `Not sent: ${errorText(test.error)}` : "";
  return (
    <div className="space-y-2">
      <Button type="button" variant="outline" size="sm" disabled={test.isPending} onClick={() => test.mutate()}>
        {test.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
        Send test
      </Button>
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
      <p role="status" data-testid="webhook-test-outcome" className={`text-sm empty:hidden ${test.data?.delivered ? "" : "text-destructive"}`}>
        {test.isPending ? "" : outcome}
      </p>
    </div>
  );
}

/**
 * The webhook's signing secret, in the one answer that carries it (a new webhook, or a rotation):
 * copyable, with how to check a delivery's signature, and Send test. Closing it goes on.
 */
export function WebhookSecretDialog({ tracker, onDone }: { tracker: Tracker; onDone: () => void }) {
  const secret = tracker.webhook?.secret;
  if (!secret) return null;
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onDone())}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>The webhook's signing secret</DialogTitle>
          <DialogDescription>It is shown this once and will not be shown again: copy it now. Editing the tracker can make a new one.</DialogDescription>
        </DialogHeader>
        <CopyField value={secret} label="Signing secret" noun="secret" autoFocus />
        <div className="min-w-0 space-y-2 text-sm">
          <p>{WEBHOOK_VERIFY_WORDS}</p>
          <p className="text-muted-foreground">In Node:</p>
          {/* Focusable: it scrolls sideways on a narrow screen. */}
          <pre tabIndex={0} className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs" aria-label="Checking the signature in Node">
            <code>{WEBHOOK_VERIFY_NODE}</code>
          </pre>
          {tracker.webhook?.format === "slack" ? (
            <p className="text-muted-foreground">Slack does not check signatures: keep the secret for an endpoint of your own.</p>
          ) : null}
        </div>
        <SendTest trackerId={tracker.id} />
        <DialogFooter>
          <Button type="button" onClick={onDone}>
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** A tracker as it may be kept: without its webhook's secret, which is shown once and never cached. */
export function withoutSecret(tracker: Tracker): Tracker {
  if (!tracker.webhook?.secret) return tracker;
  const { secret: _, ...webhook } = tracker.webhook;
  return { ...tracker, webhook };
}
