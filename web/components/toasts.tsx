import { lazy, Suspense, useState } from "react";
import { useToast } from "#web/kit.ts";

const Toaster = lazy(() => import("#web/components/ui/toaster.tsx").then((m) => ({ default: m.Toaster })));

/**
 * The toast region, loaded with the first toast: most visits never show one, and Radix Toast is a
 * sizeable part of the first page load (ADR 006). Once shown it stays mounted (F8 keeps working).
 */
export function Toasts() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
