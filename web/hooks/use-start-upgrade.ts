import { useQuery } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { messages } from "#web/lib/messages.ts";
// Not through shared-chunk.ts: it re-exports this hook, for the first page's sake (ADR 006).
import { toast } from "#web/hooks/use-toast.ts";
import { api } from "#web/lib/api.ts";
import { queries } from "#web/lib/queries.ts";
import { rememberUpgradeIntent } from "#web/lib/upgrade-intent.ts";

/**
 * The upgrade path of spec §2/§4. Anonymous: sign in first, with the upgrade intent stored.
 * Signed in: create-subscription; already active → 'Already Subscribed'; otherwise the payment to
 * confirm is stored and the checkout page takes over. `offered` is false where payments are off
 * (production without Stripe keys): upgrade buttons are not shown there.
 */
export function useStartUpgrade() {
  const [, navigate] = useLocation();
  const { data: user } = useQuery(queries.user(api));
  const { data: status } = useQuery(queries.status(api));
  return {
    offered: status?.billing !== "off",
    async start() {
      if (!user) {
        rememberUpgradeIntent();
        navigate("/auth?from=upgrade");
        return;
      }
      try {
        const result = await api.createSubscription();
        if (result.status === "active") {
          toast(messages.alreadySubscribed);
          return;
        }
        // The checkout's code loads with the checkout, not with the first page (ADR 006).
        const { rememberCheckout } = await import("#web/lib/checkout.ts");
        if (result.clientSecret && result.subscriptionId) rememberCheckout({ clientSecret: result.clientSecret, subscriptionId: result.subscriptionId });
        navigate("/checkout");
      } catch {
        toast(messages.checkoutError);
      }
    },
    /** After a free-limit or Pro-feature toast: checkout, which sends anonymous visitors to sign in first. */
    toCheckout() {
      if (!user) rememberUpgradeIntent();
      navigate("/checkout");
    },
  };
}
