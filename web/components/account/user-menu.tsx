import { CalendarClock, History, LogOut, User as UserIcon, CreditCard, type LucideIcon } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link } from "wouter";
import type { User } from "#src/contract/auth.ts";
import { LogoutForm } from "#web/components/auth/logout-form.tsx";
import { displayName } from "#web/components/account/names.ts";
import { AvatarButton } from "#web/components/account/user-avatar.tsx";
import { WorkspaceSwitcher } from "#web/components/workspaces/workspace-switcher.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu.tsx";
import { api, queries } from "#web/shared-chunk.ts";

// The bell, beside the menu: only Pro users have trackers, so only they download it. Loaded
// from this chunk rather than the header, so that `/`'s first load does not grow (ADR 006).
const AlertsBell = lazy(() => import("#web/components/trackers/alerts-bell.tsx").then((m) => ({ default: m.AlertsBell })));

/**
 * A fixed id for the trigger, which the server renders: React's generated ids differ between the
 * server and the hydrating browser here, and the menu (rendered in the browser only) names it.
 */
const TRIGGER_ID = "user-menu-trigger";

/** Spec §2: the account links, in order (and Trackers). */
const ACCOUNT_LINKS: { href: string; icon: LucideIcon; label: string }[] = [
  { href: "/user/profile", icon: UserIcon, label: "Profile" },
  { href: "/user/history", icon: History, label: "Search History" },
  { href: "/trackers", icon: CalendarClock, label: "Trackers" },
  { href: "/user/subscription", icon: CreditCard, label: "Manage Subscription" },
];

/**
 * Spec §2: the signed-in user's avatar, opening their name, email and account links (and before
 * it the workspace switcher, to those with trackers, and for a Pro user the alerts bell). Its own chunk: Radix's menu (with its positioning engine)
 * is only downloaded by signed-in visitors.
 */
export function UserMenu({ user }: { user: User }) {
  const { data: pro } = useQuery(queries.proStatus(api));
  // After hydration only: the server's page and the browser's first render must be the same, and
  // whether the Pro status is known (and the bell's code loaded) by then differs between them.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <>
      {/* In this chunk, not one of its own: one chunk fewer for the first load's list of them (ADR 006). */}
      {hydrated ? <WorkspaceSwitcher /> : null}
      {hydrated && pro?.isPro ? (
        <Suspense fallback={null}>
          <AlertsBell />
        </Suspense>
      ) : null}
      <AccountMenu user={user} />
    </>
  );
}

function AccountMenu({ user }: { user: User }) {
  const name = displayName(user);
  // Marks the trigger once it is interactive (the menu hydrates after the rest of the page).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <AvatarButton user={user} id={TRIGGER_ID} data-ready={ready ? "" : undefined} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60" aria-labelledby={TRIGGER_ID}>
        <DropdownMenuLabel className="font-normal">
          <p className="truncate text-sm font-medium">{name}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {ACCOUNT_LINKS.map(({ href, icon: Icon, label }) => (
          <DropdownMenuItem key={href} asChild>
            <Link href={href}>
              <Icon aria-hidden="true" />
              {label}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        {/* A submit button in a POST form, like the profile's. Selecting it keeps the menu open
            (and the form in the page) until the form's own submit has signed out. */}
        <LogoutForm>
          <DropdownMenuItem asChild onSelect={(event) => event.preventDefault()}>
            <button type="submit" className="w-full">
              <LogOut aria-hidden="true" />
              Log out
            </button>
          </DropdownMenuItem>
        </LogoutForm>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
