import { useQuery } from "@tanstack/react-query";
import { House, LogIn, LogOut, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { SearchHistory } from "#web/components/account/search-history.tsx";
import { EMPTY_HISTORY_FORM, historyFilters } from "#web/lib/history.ts";
import { SpendCard, spendQuery } from "#web/components/account/spend-card.tsx";
import { EmailCard, notificationsQuery } from "#web/components/account/email-card.tsx";
import { displayName } from "#web/components/account/names.ts";
import { UserAvatar } from "#web/components/account/user-avatar.tsx";
import { LogoutForm } from "#web/components/auth/logout-form.tsx";
import { BrandLensCard } from "#web/components/lens/brand-lens-card.tsx";
import { PageSkeleton } from "#web/components/page-skeleton.tsx";
import { SharedLinksCard } from "#web/components/share/shared-links-card.tsx";
import { CliAccessCard } from "#web/components/tokens/cli-access-card.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { shareQueries } from "#web/lib/shares.ts";
import { tokenQueries } from "#web/lib/token-queries.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { api, Button, Card, CardContent, CardDescription, CardHeader, queries } from "#web/shared-chunk.ts";

/** The first page of the history, the brand lens, the e-mail settings, the tokens and the shared links arrive in the HTML; a signed-out visitor has none to fetch. */
export async function prefetch({ queryClient, api: serverApi }: PrefetchContext) {
  const user = await queryClient.ensureQueryData(queries.user(serverApi));
  if (user) {
    await Promise.all([
      // With tracker runs in it, the list opens with them hidden (until she chooses): that list arrives too.
      queryClient
        .fetchInfiniteQuery(queries.searches(serverApi))
        .then((history) =>
          history.pages[0]?.searches.some((search) => search.tracker)
            ? queryClient.prefetchInfiniteQuery(queries.searches(serverApi, historyFilters({ ...EMPTY_HISTORY_FORM, hideTrackers: true })))
            : undefined,
        )
        .catch(() => undefined),
      queryClient.prefetchQuery(workbenchQueries.brandLens(serverApi)),
      queryClient.prefetchQuery(tokenQueries.list(serverApi)),
      queryClient.prefetchQuery(shareQueries.list(serverApi)),
      queryClient.prefetchQuery(spendQuery(serverApi)),
      queryClient.prefetchQuery(notificationsQuery(serverApi)),
    ]);
  }
}

/** Spec §2 /user/profile and /user/history: one screen, the person and their search history. */
export default function ProfilePage() {
  const [location] = useLocation();
  const { data: user, isPending } = useQuery(queries.user(api));
  const history = location.startsWith("/user/history");
  const title = history ? "Search History" : "Profile";

  if (isPending) return <PageSkeleton />;
  if (!user) return <PleaseLogIn title={title} />;

  const name = displayName(user);
  return (
    <main className="container mx-auto w-full max-w-4xl flex-1 space-y-8 px-4 py-8">
      <title>{`${title} · AI Search Comparison`}</title>
      <Card>
        <CardContent className="flex flex-col items-center gap-5 text-center sm:flex-row sm:text-left">
          <UserAvatar user={user} className="size-20" fallbackClassName="text-2xl" />
          <div className="min-w-0 flex-1 space-y-1">
            <h1 className="text-2xl font-bold tracking-tight break-words">{name}</h1>
            <p className="break-all text-muted-foreground">{user.email}</p>
          </div>
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild variant="outline">
              <Link href="/">
                <House aria-hidden="true" />
                Home
              </Link>
            </Button>
            {/* POST only; without JavaScript the server answers 303 to `/`. */}
            <LogoutForm>
              <Button type="submit" variant="outline">
                <LogOut aria-hidden="true" />
                Log Out
              </Button>
            </LogoutForm>
          </div>
        </CardContent>
      </Card>
      <SpendCard />
      {/* The same screen either way; the one the address names comes first. */}
      {history ? null : <Settings />}
      <SearchHistory />
      {history ? <Settings /> : null}
    </main>
  );
}

/** What the person sets up once: their brand, tokens for the CLI; and the links they have shared. */
function Settings() {
  return (
    <>
      <BrandLensCard />
      <EmailCard />
      <CliAccessCard />
      <SharedLinksCard />
    </>
  );
}

/** Spec §2: signed out, the page asks to log in, linking to the login endpoint. */
function PleaseLogIn({ title }: { title: string }) {
  return (
    <main className="container mx-auto flex w-full max-w-6xl flex-1 items-start justify-center px-4 py-12">
      <title>{`${title} · AI Search Comparison`}</title>
      <Card className="w-full max-w-md text-center">
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight">Please Log In</h1>
          <CardDescription>Log in to see your profile and your search history.</CardDescription>
        </CardHeader>
        <CardContent>
          <EndpointLink href="/api/login" icon={LogIn}>
            Log In
          </EndpointLink>
        </CardContent>
      </Card>
    </main>
  );
}

/** A button that is a plain link to a server endpoint (spec §7): a full page load, not client navigation. */
function EndpointLink({ href, icon: Icon, variant, children }: { href: string; icon: LucideIcon; variant?: "outline"; children: ReactNode }) {
  return (
    <Button asChild variant={variant}>
      <a href={href}>
        <Icon aria-hidden="true" />
        {children}
      </a>
    </Button>
  );
}
