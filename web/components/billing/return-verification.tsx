import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { clearCheckout, forgetCompleted, verificationPending } from "#web/lib/checkout.ts";
import { api, queries, toast, messages } from "#web/shared-chunk.ts";

/**
 * Spec §4 return verification, on whatever page the browser lands: after a payment that left the
 * page (`checkout_success=true`, or the stored flag) and with a session id, a signed-in user's
 * payment is verified with the server, which asks Stripe. Success: fresh Pro status and user, and
 * 'Pro Subscription Active'.
 */
export function ReturnVerification() {
  const queryClient = useQueryClient();
  const { data: user } = useQuery(queries.user(api));
  const tried = useRef(false);

  useEffect(() => {
    if (!user || tried.current) return;
    const sessionId = verificationPending(new URL(window.location.href));
    if (!sessionId) return;
    tried.current = true;
    api
      .verifySubscription(sessionId)
      .then(({ success }) => {
        if (!success) return;
        clearCheckout();
        void queryClient.invalidateQueries({ queryKey: queries.proStatus(api).queryKey });
        void queryClient.invalidateQueries({ queryKey: queries.user(api).queryKey });
        toast(messages.proActive);
      })
      .catch(() => undefined)
      .finally(forgetCompleted);
  }, [user, queryClient]);

  return null;
}
