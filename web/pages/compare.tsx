import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function ComparePage() {
  return (
    <PageShell title="Compare Variants" heading="Compare Variants">
      <NotYetAvailable feature="Variant comparison" />
    </PageShell>
  );
}
