import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function AuthPage() {
  return (
    <PageShell title="Log In / Sign Up" heading="Log In / Sign Up">
      <NotYetAvailable feature="Signing in" />
    </PageShell>
  );
}
