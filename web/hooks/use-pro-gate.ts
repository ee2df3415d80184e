import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { api, queries, toast } from "#web/shared-chunk.ts";

export type GateToast = { variant: "destructive"; title: string; description: string };

/**
 * The doors of a Pro page (spec §5): without what it needs in its URL, `missing` is toasted and
 * the visitor goes home; anyone not Pro (signed out too) goes to /upgrade. Both replace the
 * entry, so Back does not return here. True once the page may show its content.
 */
export function useProGate(missing: GateToast | null): boolean {
  const [, navigate] = useLocation();
  const { data: pro } = useQuery(queries.proStatus(api));
  const left = useRef(false);

  useEffect(() => {
    if (left.current) return;
    if (missing) {
      left.current = true;
      toast(missing);
      navigate("/", { replace: true });
    } else if (pro && !pro.isPro) {
      left.current = true;
      navigate("/upgrade", { replace: true });
    }
  }, [missing, pro, navigate]);

  return missing === null && pro?.isPro === true;
}
