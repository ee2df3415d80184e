import { useQuery } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api, queries, rememberUpgradeIntent } from "#web/kit.ts";

/** The upgrade path of spec §2/§4: signed in → /checkout; anonymous → sign-in with the flag stored. */
export function useUpgrade() {
  const [, navigate] = useLocation();
  const { data: user } = useQuery(queries.user(api));
  return {
    start() {
      if (user) {
        navigate("/checkout");
        return;
      }
      rememberUpgradeIntent();
      navigate("/auth?from=upgrade");
    },
    /** After a free-limit or Pro-feature toast: checkout, which sends anonymous visitors to sign in. */
    toCheckout() {
      if (!user) rememberUpgradeIntent();
      navigate("/checkout");
    },
  };
}
