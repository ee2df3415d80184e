import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function ProfilePage() {
  return (
    <PageShell title="Profile" heading="Profile">
      <NotYetAvailable feature="Profiles and search history" />
    </PageShell>
  );
}
