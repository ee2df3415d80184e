import { useQuery } from "@tanstack/react-query";
import { CalendarClock, Crown, Search } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link, useLocation } from "wouter";
import { initialsOf } from "#web/components/account/names.ts";
import { api, Button, queries, Skeleton, useStartUpgrade } from "#web/shared-chunk.ts";

/** Spec §2 header: title, upgrade button, user menu. */
export function Header() {
  return (
    <header className="border-b bg-background">
      <div className="container mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Link href="/" className="flex min-w-0 items-center gap-2 font-semibold tracking-tight" aria-label="AI Search Comparison, home">
          <Search className="size-5 shrink-0 text-primary" aria-hidden="true" />
          {/* Below 440 px the buttons need the room; the link keeps its name for screen readers. */}
          <span className="hidden truncate text-base min-[440px]:inline sm:text-lg">AI Search Comparison</span>
        </Link>
        <nav aria-label="Main" className="mr-auto flex items-center">
          <TrackersLink />
        </nav>
        <nav aria-label="Account" className="flex items-center gap-2">
          <UpgradeButton />
          <AccountControl />
        </nav>
      </div>
    </header>
  );
}

/**
 * Trackers, for anyone signed in: a Pro user's home; a free user's way to them, through the trackers'
 * Pro gate, which shows /upgrade. Below 400 px only its icon shows, beside the upgrade button and the menu.
 */
function TrackersLink() {
  const { data: user } = useQuery(queries.user(api));
  const [location] = useLocation();
  if (!user) return null;
  const current = location === "/trackers" || location.startsWith("/trackers/");
  return (
    <Button asChild size="sm" variant={current ? "secondary" : "ghost"}>
      <Link href="/trackers" aria-current={current ? "page" : undefined} data-testid="nav-trackers">
        <CalendarClock aria-hidden="true" />
        <span className="sr-only min-[400px]:not-sr-only">Trackers</span>
      </Link>
    </Button>
  );
}

/**
 * Spec §2 states: 'Checking...' while the Pro status loads, a disabled 'Pro Member' for Pro, else
 * 'Upgrade to Pro' (signed in: checkout; anonymous: sign-in first, with the upgrade intent stored).
 */
function UpgradeButton() {
  const { data: pro, isPending } = useQuery(queries.proStatus(api));
  const upgrade = useStartUpgrade();
  if (isPending) {
    return (
      <Button size="sm" disabled aria-busy="true">
        Checking...
      </Button>
    );
  }
  if (pro?.isPro) {
    return (
      // Disabled, but a status rather than a greyed-out action: full contrast.
      <Button size="sm" variant="outline" disabled className="disabled:opacity-100">
        <Crown className="text-amber-600" aria-hidden="true" />
        Pro Member
      </Button>
    );
  }
  // Where payments are off (production without Stripe keys), Pro is not offered.
  if (!upgrade.offered) return null;
  return (
    <Button size="sm" onClick={() => void upgrade.start()}>
      Upgrade to Pro
    </Button>
  );
}

// Only signed-in visitors need the menu (and Radix's avatar and menu), so its code is not part of
// everyone's first load (ADR 006). The server renders it in full and the browser hydrates it once
// the chunk is in; the plain initials only show when signing in without a page load.
const UserMenu = lazy(() => import("#web/components/account/user-menu.tsx").then((m) => ({ default: m.UserMenu })));

/** A skeleton while we ask who this is; then the sign-in link or the user's menu. */
function AccountControl() {
  const { data: user, isPending } = useQuery(queries.user(api));
  if (isPending) return <Skeleton className="h-8 w-28" aria-label="Checking sign-in" role="status" />;
  if (!user) {
    return (
      <Button asChild size="sm" variant="outline">
        <Link href="/auth">Log In / Sign Up</Link>
      </Button>
    );
  }
  return (
    <Suspense
      fallback={
        <span className="flex size-9 items-center justify-center" aria-hidden="true">
          <span className="flex size-8 items-center justify-center rounded-full bg-muted text-sm font-medium">{initialsOf(user)}</span>
        </span>
      }
    >
      <UserMenu user={user} />
    </Suspense>
  );
}
