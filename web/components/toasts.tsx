import { useEffect, useState, type ComponentType } from "react";
import { useToast } from "#web/shared-chunk.ts";

type ToasterModule = typeof import("#web/components/ui/toaster.tsx");
let toasterModule: Promise<ToasterModule> | undefined;
const loadToaster = () => (toasterModule ??= import("#web/components/ui/toaster.tsx"));

/**
 * The toast region. Radix Toast is a sizeable part of a page load, so it stays out of the first
 * one (ADR 006) and loads once the page is idle: the first toast then shows in the next frame
 * (ADR 022). A toast shown before that loads it at once. No Suspense: React holds a revealed
 * boundary back up to 300 ms. Once mounted it stays (F8 keeps working).
 */
export function Toasts() {
  const { toasts } = useToast();
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  const wanted = toasts.length > 0;
  useEffect(() => {
    if (Toaster) return;
    let live = true;
    const load = () => void loadToaster().then((m) => live && setToaster(() => m.Toaster));
    if (wanted) {
      load();
      return () => void (live = false);
    }
    // Safari has no requestIdleCallback.
    if (typeof requestIdleCallback !== "function") {
      const timer = setTimeout(load, 200);
      return () => {
        live = false;
        clearTimeout(timer);
      };
    }
    const idle = requestIdleCallback(load, { timeout: 2000 });
    return () => {
      live = false;
      cancelIdleCallback(idle);
    };
  }, [Toaster, wanted]);
  return Toaster ? <Toaster /> : null;
}
