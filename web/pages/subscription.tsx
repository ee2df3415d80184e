import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function SubscriptionPage() {
  return (
    <PageShell title="Manage Subscription" heading="Manage Subscription">
      <NotYetAvailable feature="Subscription management" />
    </PageShell>
  );
}
