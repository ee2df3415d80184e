import { RequireUser } from "#web/components/auth/require-user.tsx";
import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function CheckoutPage() {
  // Spec §6: checkout needs a signed-in user. A visitor sent here is on the way to paying, so the
  // sign-in page shows its upgrade banner (a client-side redirect leaves no referrer to read).
  return (
    <RequireUser to="/auth?from=upgrade">
      <PageShell title="Checkout" heading="Checkout">
        <NotYetAvailable feature="Checkout" />
      </PageShell>
    </RequireUser>
  );
}
