import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function VariantsPage() {
  return (
    <PageShell title="Query Variants" heading="Query Variants">
      <NotYetAvailable feature="Query variants" />
    </PageShell>
  );
}
