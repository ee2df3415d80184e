import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function SearchPage() {
  return (
    <PageShell title="Saved Search" heading="Saved Search">
      <NotYetAvailable feature="Saved searches" />
    </PageShell>
  );
}
