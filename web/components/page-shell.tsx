import type { ReactNode } from "react";

/** The common frame of a page: its document title, heading and content column. */
export function PageShell({ title, heading, children }: { title: string; heading?: ReactNode; children?: ReactNode }) {
  return (
    <main className="container mx-auto w-full max-w-6xl flex-1 px-4 py-8">
      <title>{`${title} · AI Search Comparison`}</title>
      {heading === undefined ? null : <h1 className="mb-4 text-2xl font-bold tracking-tight">{heading}</h1>}
      {children}
    </main>
  );
}

/** What a route shows until its feature ships: says so plainly instead of pretending. */
export function NotYetAvailable({ feature }: { feature: string }) {
  return <p className="text-muted-foreground">{feature} is not available in this version yet.</p>;
}
