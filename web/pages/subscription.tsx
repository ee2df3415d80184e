import { RequireUser } from "#web/components/auth/require-user.tsx";
import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function SubscriptionPage() {
  // Spec §2: unauthenticated users are sent to /auth.
  return (
    <RequireUser>
      <PageShell title="Manage Subscription" heading="Manage Subscription">
        <NotYetAvailable feature="Subscription management" />
      </PageShell>
    </RequireUser>
  );
}
