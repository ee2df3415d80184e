import { NotYetAvailable, PageShell } from "#web/components/page-shell.tsx";

export default function CheckoutPage() {
  return (
    <PageShell title="Checkout" heading="Checkout">
      <NotYetAvailable feature="Checkout" />
    </PageShell>
  );
}
