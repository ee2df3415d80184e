import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import type { EmailConfirmation } from "#src/contract/notifications.ts";
import { emailLinkQueries } from "#web/lib/email-links.ts";
import type { PageProps, PrefetchContext, PrefetchOutcome } from "#web/page.ts";
import { ConfirmAction, Said } from "#web/components/email-link-page.tsx";
import { api, ApiError, Skeleton } from "#web/shared-chunk.ts";

/*
 * /email/confirm/{token} (ADR 053): where a confirmation link opens. It says which address the
 * link is for and asks for the click that proves it: a link scanner that only opens the page
 * proves nothing. Anyone holding the link may press it (it went to that address); no session needed.
 */

/** What the link is for arrives with the page; a link that is not valid (or for an address the account no longer has) answers 404. */
export async function prefetch({ queryClient, api: serverApi, params }: PrefetchContext): Promise<PrefetchOutcome> {
  const link = await queryClient.fetchQuery(emailLinkQueries.confirmation(serverApi, params.token ?? ""));
  if (!link) return { status: 404 };
}

export default function EmailConfirmPage({ params }: PageProps) {
  const token = params.token ?? "";
  const queryClient = useQueryClient();
  const query = emailLinkQueries.confirmation(api, token);
  const { data: link, isPending, error } = useQuery(query);
  const confirm = useMutation({
    mutationFn: () => api.confirmEmail(token),
    onSuccess: (confirmed: EmailConfirmation) => queryClient.setQueryData(query.queryKey, confirmed),
  });
  return (
    <main className="container mx-auto flex w-full max-w-xl flex-1 flex-col gap-4 px-4 py-12">
      <meta name="robots" content="noindex, nofollow" />
      {isPending ? (
        <Skeleton className="h-40 w-full" aria-label="Loading" role="status" />
      ) : error ? (
        <Said title="Could not read this link">{error instanceof ApiError ? (error.serverMessage ?? error.message) : "Please try again."}</Said>
      ) : !link ? (
        <Said title="This confirmation link is not valid">
          It may be for an address this account no longer has, or be incomplete. Ask for a new one in <ProfileLink />.
        </Said>
      ) : link.state === "confirmed" ? (
        <Said title="Address confirmed">
          <span className="font-medium break-all text-foreground">{link.email}</span> is confirmed: the tracker e-mails turned on for it are sent from now on.
          Each one has a link to unsubscribe.
        </Said>
      ) : link.state === "expired" ? (
        <Said title="This confirmation link has expired">
          A confirmation link works for an hour. Ask for a new one in <ProfileLink />.
        </Said>
      ) : (
        <>
          <Said title="Confirm your e-mail address">
            Confirm that <span className="font-medium break-all text-foreground">{link.email}</span> is yours and may receive the tracker e-mails its account on
            AI Search Comparison turned on. If you did not ask for them, close this page: nothing is sent to it.
          </Said>
          <ConfirmAction confirm={confirm} />
        </>
      )}
    </main>
  );
}

/** The page's heading and what it says. */

function ProfileLink() {
  return (
    <Link href="/user/profile#email" className="font-medium text-foreground underline underline-offset-2">
      your profile's E-mail card
    </Link>
  );
}
