import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useLocation } from "wouter";
import type { User } from "#src/contract/auth.ts";
import { api, personalQueryKeys, queries, toast } from "#web/shared-chunk.ts";

/**
 * Keeps the react-query cache in step with who is signed in: the user is set directly, what
 * depends on the person (Pro status, quota) is refetched, and the previous person's history is
 * dropped.
 */
export function useSessionCache() {
  const queryClient = useQueryClient();
  return useMemo(() => {
    const refreshPersonal = () => {
      for (const queryKey of personalQueryKeys) queryClient.removeQueries({ queryKey });
      // Reset, not just refetched: until the new person's answer is in, the header says
      // 'Checking...' rather than the previous person's tier.
      void queryClient.resetQueries({ queryKey: queries.proStatus(api).queryKey });
      void queryClient.invalidateQueries({ queryKey: queries.quota(api).queryKey });
    };
    return {
      signedIn(user: User) {
        queryClient.setQueryData(queries.user(api).queryKey, user);
        refreshPersonal();
      },
      signedOut() {
        queryClient.setQueryData(queries.user(api).queryKey, null);
        refreshPersonal();
      },
    };
  }, [queryClient]);
}

/** "Log out" (spec §7, LogoutForm): POST /api/logout, then home with the caches cleared. */
export function useLogout(): () => Promise<void> {
  const [, navigate] = useLocation();
  const session = useSessionCache();
  return async () => {
    try {
      await api.logout();
    } catch (error) {
      toast({ variant: "destructive", title: "Logout failed", description: error instanceof Error ? error.message : "Please try again." });
      return;
    }
    navigate("/");
    session.signedOut();
  };
}
