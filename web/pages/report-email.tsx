import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReportConfirmation } from "#src/contract/reports.ts";
import { reportLinkQueries } from "#web/lib/email-links.ts";
import type { PageProps, PrefetchContext, PrefetchOutcome } from "#web/page.ts";
import { ConfirmAction, Said } from "#web/components/email-link-page.tsx";
import { api, ApiError, Skeleton } from "#web/shared-chunk.ts";

/*
 * /email/report/confirm/{token} and /email/report/unsubscribe/{token} (ADR 066): where a tracker
 * report's recipient lands, who may have no account. Confirming asks for the click (a link scanner
 * that opens the page confirms nothing); unsubscribing is done as the page is rendered, and said.
 */

export async function prefetch({ queryClient, api: serverApi, params }: PrefetchContext): Promise<PrefetchOutcome> {
  const token = params.token ?? "";
  const found =
    params.action === "confirm"
      ? await queryClient.fetchQuery(reportLinkQueries.confirmation(serverApi, token))
      : params.action === "unsubscribe"
        ? await queryClient.fetchQuery(reportLinkQueries.unsubscribe(serverApi, token))
        : null;
  if (!found) return { status: 404 };
}

export default function ReportEmailPage({ params }: PageProps) {
  return (
    <main className="container mx-auto flex w-full max-w-xl flex-1 flex-col gap-4 px-4 py-12">
      <meta name="robots" content="noindex, nofollow" />
      {params.action === "confirm" ? <Confirm token={params.token ?? ""} /> : <Unsubscribe token={params.token ?? ""} />}
    </main>
  );
}

function Confirm({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const query = reportLinkQueries.confirmation(api, token);
  const { data: link, isPending, error } = useQuery(query);
  const confirm = useMutation({
    mutationFn: () => api.confirmReport(token),
    onSuccess: (confirmed: ReportConfirmation) => queryClient.setQueryData(query.queryKey, confirmed),
  });
  if (isPending) return <Skeleton className="h-40 w-full" aria-label="Loading" role="status" />;
  if (error) return <Said title="Could not read this link">{error instanceof ApiError ? (error.serverMessage ?? error.message) : "Please try again."}</Said>;
  if (!link) return <Said title="This link is not valid">The report's owner may have removed this address, or the link is incomplete.</Said>;
  if (link.state === "confirmed")
    return (
      <Said title="Confirmed">
        {`${link.email} will receive the report of the tracker "${link.tracker}" from the next one on. Each report has a link to unsubscribe.`}
      </Said>
    );
  if (link.state === "unsubscribed")
    return <Said title="Unsubscribed">{`${link.email} unsubscribed from the report of "${link.tracker}": nothing more of it is sent there.`}</Said>;
  return (
    <>
      <Said title="Confirm you want this report">
        {`Confirm that ${link.email} may receive the report of the tracker "${link.tracker}" from AI Search Comparison. If you did not ask for it, close this page: nothing is sent.`}
      </Said>
      <ConfirmAction confirm={confirm} />
    </>
  );
}

function Unsubscribe({ token }: { token: string }) {
  const { data: done, isPending, error } = useQuery(reportLinkQueries.unsubscribe(api, token));
  if (isPending) return <Skeleton className="h-16 w-full" aria-label="Unsubscribing" role="status" />;
  if (error) return <Said title="Could not unsubscribe">{error instanceof ApiError ? (error.serverMessage ?? error.message) : "Please try again."}</Said>;
  if (!done) return <Said title="This link is not valid">The report's owner may have removed this address already: nothing more is sent to it.</Said>;
  return <Said title="Unsubscribed">{`No more reports of the tracker "${done.tracker}" are sent to ${done.email}.`}</Said>;
}
