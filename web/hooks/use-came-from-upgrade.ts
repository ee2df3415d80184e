import { useEffect, useState } from "react";
import { useSearchParams } from "wouter";
import { takeUpgradeIntent } from "#web/shared-chunk.ts";

/** Spec §2: pages whose address says the visitor was on their way to paying. */
const UPGRADE_REFERRER = /checkout|upgrade|pricing|subscribe/i;

/**
 * Whether the visitor came to sign in from the upgrade flow (spec §2 auth page): `?from=upgrade`,
 * a referrer naming checkout, upgrade, pricing or subscribe, or the stored fromUpgrade flag.
 *
 * The query is known on the server; the referrer and the flag only in the browser, so they are
 * read after hydration (the server and the first client render agree). The flag is cleared as it
 * is read, so it shows the banner once.
 */
export function useCameFromUpgrade(): boolean {
  const [params] = useSearchParams();
  const fromQuery = params.get("from") === "upgrade";
  const [fromBrowser, setFromBrowser] = useState(false);
  useEffect(() => {
    const stored = takeUpgradeIntent();
    if (stored || UPGRADE_REFERRER.test(document.referrer)) setFromBrowser(true);
  }, []);
  return fromQuery || fromBrowser;
}
