import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, Skeleton } from "#web/shared-chunk.ts";

type QueryStateProps<T> = {
  query: UseQueryResult<T>;
  /** What is read, for "Loading the …" and "Could not load the …". */
  what: string;
  /** The placeholder's size while it loads. */
  skeletonClassName: string;
  children: (data: T) => ReactNode;
};

/** A section of the tracker page while its data loads, when it could not be read, and once it is there. */
export function QueryState<T>({ query, what, skeletonClassName, children }: QueryStateProps<T>) {
  if (query.isPending) return <Skeleton className={skeletonClassName} aria-label={`Loading the ${what}`} role="status" />;
  if (query.isError)
    return (
      <Alert variant="destructive">
        <AlertTitle>{`Could not load the ${what}`}</AlertTitle>
        <AlertDescription>{errorText(query.error)}</AlertDescription>
      </Alert>
    );
  return children(query.data);
}
