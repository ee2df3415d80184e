import * as React from "react";
import { Slot } from "radix-ui";

import { cn } from "#web/lib/utils.ts";

/*
 * shadcn's Tooltip API (Tooltip, TooltipTrigger asChild, TooltipContent, TooltipProvider) on a
 * small implementation instead of Radix's popper: Radix Tooltip brings floating-ui to the first
 * page load, which has a hard budget (ADR 006). Content shows above its
 * trigger; hover or focus opens it after 700 ms, Escape or leaving closes it, and for 300 ms
 * after one closes the next opens at once (spec §9).
 */

/** Product timing: a tooltip opens after 700 ms of hover/focus ... */
const TOOLTIP_DELAY_DURATION = 700;
/** ... and, once one has closed, the next opens instantly for 300 ms. */
const TOOLTIP_SKIP_DELAY_DURATION = 300;

type Timing = { delayDuration: number; skipDelayDuration: number };
const TimingContext = React.createContext<Timing>({
  delayDuration: TOOLTIP_DELAY_DURATION,
  skipDelayDuration: TOOLTIP_SKIP_DELAY_DURATION,
});

type TooltipState = { open: boolean; contentId: string; show(): void; hide(): void };
const TooltipContext = React.createContext<TooltipState | null>(null);

// Shared by every tooltip on the page: when the last one closed, for the skip window.
let lastClosedAt = 0;

function TooltipProvider({
  delayDuration = TOOLTIP_DELAY_DURATION,
  skipDelayDuration = TOOLTIP_SKIP_DELAY_DURATION,
  children,
}: {
  delayDuration?: number;
  skipDelayDuration?: number;
  children: React.ReactNode;
}) {
  const timing = React.useMemo(() => ({ delayDuration, skipDelayDuration }), [delayDuration, skipDelayDuration]);
  return <TimingContext.Provider value={timing}>{children}</TimingContext.Provider>;
}

function Tooltip({ children }: { children: React.ReactNode }) {
  const { delayDuration, skipDelayDuration } = React.useContext(TimingContext);
  const [open, setOpen] = React.useState(false);
  const timer = React.useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const contentId = React.useId();

  const state = React.useMemo<TooltipState>(
    () => ({
      open,
      contentId,
      show() {
        clearTimeout(timer.current);
        const wait = Date.now() - lastClosedAt < skipDelayDuration ? 0 : delayDuration;
        timer.current = setTimeout(() => setOpen(true), wait);
      },
      hide() {
        clearTimeout(timer.current);
        setOpen((wasOpen) => {
          if (wasOpen) lastClosedAt = Date.now();
          return false;
        });
      },
    }),
    [open, contentId, delayDuration, skipDelayDuration],
  );

  React.useEffect(() => () => clearTimeout(timer.current), []);
  React.useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && state.hide();
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, state]);

  return (
    <TooltipContext.Provider value={state}>
      <span data-slot="tooltip" className="relative inline-flex">
        {children}
      </span>
    </TooltipContext.Provider>
  );
}

function useTooltip(): TooltipState {
  const state = React.useContext(TooltipContext);
  if (!state) throw new Error("TooltipTrigger and TooltipContent must be inside a Tooltip");
  return state;
}

function TooltipTrigger({ asChild = false, ...props }: React.ComponentProps<"button"> & { asChild?: boolean }) {
  const { open, contentId, show, hide } = useTooltip();
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      data-slot="tooltip-trigger"
      data-state={open ? "delayed-open" : "closed"}
      aria-describedby={open ? contentId : undefined}
      onPointerEnter={show}
      onPointerLeave={hide}
      onFocus={show}
      onBlur={hide}
      onPointerDown={hide}
      {...props}
    />
  );
}

function TooltipContent({ className, children, ...props }: React.ComponentProps<"span">) {
  const { open, contentId } = useTooltip();
  if (!open) return null;
  return (
    <span
      id={contentId}
      role="tooltip"
      data-slot="tooltip-content"
      className={cn(
        "bg-primary text-primary-foreground animate-in fade-in-0 zoom-in-95 absolute bottom-full left-1/2 z-50 mb-2 w-max max-w-[min(20rem,calc(100vw-2rem))] -translate-x-1/2 rounded-md px-3 py-1.5 text-xs text-balance",
        className,
      )}
      {...props}
    >
      {children}
    </span>
  );
}

export { Tooltip, TooltipTrigger, TooltipContent, TooltipProvider, TOOLTIP_DELAY_DURATION, TOOLTIP_SKIP_DELAY_DURATION };
