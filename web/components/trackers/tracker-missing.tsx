import { Link } from "wouter";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle } from "#web/shared-chunk.ts";

/** A tracker that cannot be read: another person's or a deleted one is 404 to the API. */
export function TrackerMissing({ error }: { error: unknown }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>Could not open this tracker</AlertTitle>
      <AlertDescription>
        <p>{errorText(error)}</p>
        <Link href="/trackers" className="underline underline-offset-2">
          Your trackers
        </Link>
      </AlertDescription>
    </Alert>
  );
}
