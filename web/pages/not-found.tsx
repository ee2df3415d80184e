import { Link } from "wouter";
import type { PrefetchOutcome } from "#web/page.ts";
import { Button } from "#web/shared-chunk.ts";

/** No page has this address: answered 404. */
export async function prefetch(): Promise<PrefetchOutcome> {
  return { status: 404 };
}

export default function NotFoundPage() {
  return (
    <main className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <title>404 Page Not Found · AI Search Comparison</title>
      <h1 className="mb-3 text-3xl font-bold tracking-tight">404 Page Not Found</h1>
      <p className="mb-6 text-muted-foreground">The page you're looking for doesn't exist or may have been moved.</p>
      <Button asChild>
        <Link href="/">Return to Home</Link>
      </Button>
    </main>
  );
}
