import { useQuery } from "@tanstack/react-query";
import { Link } from "wouter";
import type { Unsubscribed } from "#src/contract/notifications.ts";
import { emailLinkQueries } from "#web/lib/email-links.ts";
import type { PageProps, PrefetchContext, PrefetchOutcome } from "#web/page.ts";
import { api, ApiError, Skeleton } from "#web/shared-chunk.ts";

/*
 * /email/unsubscribe/{token} (ADR 053): where every e-mail's unsubscribe link opens. Following it
 * turns that kind of e-mail off, as the page is rendered on the server, and the page says so; no
 * session needed. (The mail's List-Unsubscribe header takes the same link as a one-click POST.)
 */

/** Unsubscribes as the page is made; a link that is not ours answers 404. */
export async function prefetch({ queryClient, api: serverApi, params }: PrefetchContext): Promise<PrefetchOutcome> {
  const done = await queryClient.fetchQuery(emailLinkQueries.unsubscribe(serverApi, params.token ?? ""));
  if (!done) return { status: 404 };
}

const OFF: Record<Unsubscribed["off"], string> = {
  alerts: "Alert e-mails are off: no more e-mails are sent when this account's trackers find alerts. The alerts are still shown in the product.",
  digest: "The weekly digest is off: it is no longer sent.",
  all: "This account's e-mails are off: nothing more is sent to this address for it.",
};

export default function UnsubscribePage({ params }: PageProps) {
  const { data: done, isPending, error } = useQuery(emailLinkQueries.unsubscribe(api, params.token ?? ""));
  const title = isPending ? "Unsubscribing…" : error ? "Could not unsubscribe" : done ? "Unsubscribed" : "This unsubscribe link is not valid";
  return (
    <main className="container mx-auto flex w-full max-w-xl flex-1 flex-col gap-4 px-4 py-12">
      <meta name="robots" content="noindex, nofollow" />
      <title>{`${title} · AI Search Comparison`}</title>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {isPending ? (
        <Skeleton className="h-16 w-full" aria-label="Unsubscribing" role="status" />
      ) : (
        <p className="text-muted-foreground">
          {error
            ? error instanceof ApiError
              ? (error.serverMessage ?? error.message)
              : "Please try again."
            : done
              ? `${OFF[done.off]} To turn e-mails back on, sign in and use `
              : "It may be incomplete. You can turn e-mails off in "}
          {error ? null : (
            <>
              <Link href="/user/profile#email" className="font-medium text-foreground underline underline-offset-2">
                your profile's E-mail card
              </Link>
              .
            </>
          )}
        </p>
      )}
    </main>
  );
}
