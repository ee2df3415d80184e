import { useEffect, useState } from "react";

/**
 * The reader's own time zone, for the times a tracker shows ("next run", "last run", a run's
 * start): `fallback` (the tracker's zone) in the server's render and the first in the browser, so
 * they agree, then the browser's zone once it has hydrated. Each text names its zone.
 */
export function useViewerZone(fallback: string): string {
  const [zone, setZone] = useState(fallback);
  useEffect(() => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (own && isZone(own)) setZone(own);
  }, []);
  return zone;
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
