import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, Send, X } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { MAX_REPORT_RECIPIENTS, type ReportCadence, type ReportSettings } from "#src/contract/reports.ts";
import { formatInZone, fromNow } from "#src/core/tracker-timing.ts";
import { notificationsQuery } from "#web/components/account/email-card.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { api, Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, NativeSelect, NativeSelectOption } from "#web/shared-chunk.ts";

const STATUS: Record<ReportSettings["recipients"][number]["status"], string> = {
  pending: "Waiting for confirmation",
  confirmed: "Confirmed",
  unsubscribed: "Unsubscribed",
};

const CADENCE: Record<ReportCadence, string> = {
  weekly: "Weekly, Mondays at 08:00",
  monthly: "Monthly, on the 1st at 08:00",
  off: "Off",
};

/**
 * "Reports by e-mail" (ADR 066): the tracker's report to people who asked for it, weekly or
 * monthly, each recipient with their status; and Send a test now, to the owner alone. Without
 * SMTP_URL it says how to set e-mail up, and its controls are disabled. A revoked link for
 * recipients is not made again on its own: the owner makes a new one here.
 */
export function TrackerReportEmail({ trackerId }: { trackerId: string }) {
  const queryClient = useQueryClient();
  const key = ["tracker-report", trackerId];
  const { data, error, isPending } = useQuery({ queryKey: key, queryFn: () => api.getTrackerReport(trackerId) });
  const [adding, setAdding] = useState("");
  const save = useMutation({
    mutationFn: (next: { cadence: ReportCadence; recipients: string[] }) => api.setTrackerReport(trackerId, next),
    onSuccess: (settings) => {
      queryClient.setQueryData(key, settings);
      setAdding("");
    },
  });
  const test = useMutation({ mutationFn: () => api.testTrackerReport(trackerId) });
  const newLink = useMutation({
    mutationFn: () => api.newTrackerReportLink(trackerId),
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
  });
  // The owner's own address: a test goes only to it once confirmed, so say beforehand when it is not.
  const { data: owner } = useQuery(notificationsQuery(api));

  if (isPending) return null;
  if (error || !data) return <p className="text-sm text-destructive print:hidden">{`Reports by e-mail could not be read: ${errorText(error)}`}</p>;
  const off = !data.emailConfigured;
  const emails = data.recipients.map((r) => r.email);
  const put = (change: Partial<{ cadence: ReportCadence; recipients: string[] }>) => save.mutate({ cadence: data.cadence, recipients: emails, ...change });

  return (
    <Card className="print:hidden" data-testid="tracker-report-email">
      <CardHeader>
        <CardTitle>Reports by e-mail</CardTitle>
        <CardDescription>
          The headline, each provider's figures, the period's alerts and a read-only link, e-mailed to the people you add. Each of them confirms once by a link
          before anything is sent, and every report has an unsubscribe link.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {off ? (
          <p data-testid="report-email-setup">
            E-mail is not configured on this server. To send reports, set SMTP_URL (such as smtp://user:password@mail.example.com:587) and PUBLIC_URL (the
            address people open this service at, which the e-mails link to), then restart the server.
          </p>
        ) : null}
        <label className="flex flex-wrap items-center gap-2">
          <span>Send</span>
          <NativeSelect
            value={data.cadence}
            disabled={off || save.isPending}
            onChange={(event) => put({ cadence: event.target.value as ReportCadence })}
            aria-label="How often the report is sent"
          >
            {(Object.keys(CADENCE) as ReportCadence[]).map((cadence) => (
              <NativeSelectOption key={cadence} value={cadence}>
                {CADENCE[cadence]}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          <span className="text-muted-foreground">{`(${data.timezone})`}</span>
        </label>
        {data.nextAt ? (
          <p className="text-muted-foreground" suppressHydrationWarning>
            {`Next report: ${formatInZone(data.nextAt, data.timezone)} · ${fromNow(data.nextAt, new Date())}.`}
          </p>
        ) : null}
        {data.recipients.length === 0 ? (
          <p className="text-muted-foreground">No recipients yet.</p>
        ) : (
          <ul className="space-y-2" data-testid="report-recipients">
            {data.recipients.map((recipient) => (
              <li key={recipient.email} className="flex flex-wrap items-center gap-2">
                <span className="break-all">{recipient.email}</span>
                <Badge variant={recipient.status === "confirmed" ? "default" : "secondary"}>{STATUS[recipient.status]}</Badge>
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  disabled={save.isPending}
                  aria-label={`Remove ${recipient.email}`}
                  onClick={() => put({ recipients: emails.filter((email) => email !== recipient.email) })}
                >
                  <X aria-hidden="true" />
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form
          className="flex flex-wrap gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (adding.trim()) put({ recipients: [...emails, adding.trim()] });
          }}
        >
          <Input
            type="email"
            value={adding}
            onChange={(event) => setAdding(event.target.value)}
            placeholder="ceo@example.com"
            aria-label="Recipient's e-mail address"
            className="max-w-xs"
            disabled={off || emails.length >= MAX_REPORT_RECIPIENTS}
          />
          <Button type="submit" variant="outline" size="sm" disabled={off || save.isPending || emails.length >= MAX_REPORT_RECIPIENTS}>
            Add recipient
          </Button>
        </form>
        <p className="text-muted-foreground">{`At most ${MAX_REPORT_RECIPIENTS} recipients. A new one is sent a confirmation link; nothing else goes to them until they follow it.`}</p>
        {data.shareUrl ? (
          <p className="text-muted-foreground">{`Recipients' reports link to ${data.shareUrl}. Revoking it in your profile removes the link from later reports.`}</p>
        ) : null}
        {data.shareRevoked ? (
          <div className="space-y-2" data-testid="report-link-revoked">
            <p>You revoked the link recipients' reports linked to: later reports go without one until you make a new one.</p>
            <Button type="button" variant="outline" size="sm" disabled={newLink.isPending} onClick={() => newLink.mutate()}>
              Make a new link for recipients
            </Button>
            {newLink.isError ? (
              <p role="alert" className="text-destructive">
                {`No link made: ${errorText(newLink.error)}`}
              </p>
            ) : null}
          </div>
        ) : null}
        {save.isError ? (
          <p role="alert" className="text-destructive">
            {`Not saved: ${errorText(save.error)}`}
          </p>
        ) : null}
        <div className="space-y-2">
          <Button type="button" variant="outline" size="sm" disabled={off || test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
            Send a test now
          </Button>
          <p className="text-xs text-muted-foreground">The report as it stands now, to your own confirmed address only.</p>
          {!off && owner && !owner.confirmedAt ? (
            <p data-testid="report-owner-unconfirmed">
              {`Your address ${owner.email} is not confirmed, so a test is not sent to it: confirm it in `}
              <Link href="/user/profile#email" className="font-medium underline underline-offset-2">
                your profile's E-mail card
              </Link>
              .
            </p>
          ) : null}
          <p role="status" data-testid="report-test-outcome" className="empty:hidden">
            {test.isPending ? "" : test.data ? test.data.message : test.error ? `Not sent: ${errorText(test.error)}` : ""}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
