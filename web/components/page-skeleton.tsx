import { Skeleton } from "#web/shared-chunk.ts";

/** Shown only while a page's code loads after a back/forward navigation. */
export function PageSkeleton() {
  return (
    <main className="container mx-auto max-w-6xl flex-1 px-4 py-8" aria-busy="true">
      <Skeleton className="mb-4 h-8 w-1/3" />
      <Skeleton className="mb-2 h-4 w-2/3" />
      <Skeleton className="h-40 w-full" />
    </main>
  );
}
