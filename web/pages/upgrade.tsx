import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function UpgradePage() {
  return (
    <PageShell title="Upgrade to Pro" heading="Upgrade to Pro">
      <NotYetAvailable feature="Pro subscriptions" />
    </PageShell>
  );
}
