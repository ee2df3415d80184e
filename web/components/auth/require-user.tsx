import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import { PageSkeleton } from "#web/components/page-skeleton.tsx";
import { signInFrom } from "#web/lib/return-path.ts";
import { api, queries } from "#web/shared-chunk.ts";

/**
 * Spec §6: these pages need a signed-in user; a visitor who arrives signed out is sent to sign in
 * (`replace`, so Back does not return here), and signing in brings them back (`?next=`). The page's HTML cannot carry a redirect status, so
 * the server renders a skeleton and the browser moves on as it hydrates.
 *
 * Someone who signs out while here is on their way home already (the menu's Log out), so only
 * arriving signed out redirects.
 */
export function RequireUser({ to = "/auth", returnHere = true, children }: { to?: string; returnHere?: boolean; children: ReactNode }) {
  const [, navigate] = useLocation();
  const { data: user } = useQuery(queries.user(api));
  const wasSignedIn = useRef(false);

  useEffect(() => {
    if (user) wasSignedIn.current = true;
    else if (user === null && !wasSignedIn.current)
      navigate(returnHere ? signInFrom(to, `${window.location.pathname}${window.location.search}`) : to, { replace: true });
  }, [user, navigate, to, returnHere]);

  return user ? children : <PageSkeleton />;
}
