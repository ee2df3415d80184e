import { ExternalLink, FlaskConical } from "lucide-react";
import type { ReactNode } from "react";
import { providerIds, type ModelResult, type ProviderId, type SearchResult } from "#src/contract/search.ts";
import { MISSING_RANK } from "#src/core/aggregate.ts";
import { providerLabels } from "#src/core/export.ts";
import { safeHref, sourceLabel } from "#web/lib/format.ts";
import { cn } from "#web/lib/utils.ts";
import { Badge } from "#web/kit.ts";

export type SimulatedFlags = Record<ProviderId, boolean>;

export function simulatedFlags(result: SearchResult): SimulatedFlags {
  return { openai: result.openai.simulated, anthropic: result.anthropic.simulated, gemini: result.gemini.simulated };
}

/** Honesty rule: every place a simulated provider's answer appears carries this badge. */
export function SimulatedBadge({ className }: { className?: string }) {
  return (
    <Badge
      variant="outline"
      className={cn("border-amber-500 bg-amber-50 text-amber-900 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100", className)}
      title="This answer comes from our simulator, not from the live provider"
    >
      <FlaskConical aria-hidden="true" />
      Simulated
    </Badge>
  );
}

/** Which models returned an item, as small badges ("Claude · Simulated" for a simulated one). */
export function ModelBadges({ models, simulated }: { models: ProviderId[]; simulated: SimulatedFlags }) {
  const ordered = providerIds.filter((id) => models.includes(id));
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Returned by">
      {ordered.map((id) => (
        <li key={id}>
          <Badge variant="secondary" className={simulated[id] ? "border-amber-500" : undefined}>
            {providerLabels[id].model}
            {simulated[id] ? <span className="font-normal text-amber-900 dark:text-amber-100">· Simulated</span> : null}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/**
 * A source as a link opening in a new tab (host name, or full URL with `show="url"`), its title
 * on hover. Anything that is not a valid http(s) URL is shown as plain text, never as a link.
 */
export function SourceLink({ source, show = "label", className }: { source: { url: string; title?: string | undefined }; show?: "label" | "url"; className?: string }) {
  const href = safeHref(source.url);
  const text = show === "label" ? sourceLabel(source) : source.url.trim();
  const hover = source.title?.trim() || source.url.trim();
  if (!href) {
    return (
      <span className={cn("break-all", className)} title={hover}>
        {text}
      </span>
    );
  }
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={hover}
      className={cn("inline-flex max-w-full min-w-0 items-center gap-1 text-blue-700 underline-offset-2 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none dark:text-blue-300", className)}
    >
      <span className="truncate">{text}</span>
      <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

/** ✓ for true, ✗ for false (with "Yes"/"No" for screen readers), or the string itself. */
export function Mark({ value }: { value: boolean | string }) {
  if (typeof value === "string") return <>{value}</>;
  return value ? (
    <>
      <span aria-hidden="true" className="font-semibold text-green-700 dark:text-green-400">
        ✓
      </span>
      <span className="sr-only">Yes</span>
    </>
  ) : (
    <>
      <span aria-hidden="true" className="text-muted-foreground">
        ✗
      </span>
      <span className="sr-only">No</span>
    </>
  );
}

export function EmptyText({ children }: { children: ReactNode }) {
  return <p className="py-2 text-sm text-muted-foreground">{children}</p>;
}

/** A model's products in card order: by rank (missing = 999), then as listed; numbered by rank, else position. */
export function productsInOrder(model: Pick<ModelResult, "products">): { name: string; rank?: number; details?: string; number: number }[] {
  return model.products
    .map((product, position) => ({ product, position }))
    .sort((a, b) => (a.product.rank ?? MISSING_RANK) - (b.product.rank ?? MISSING_RANK) || a.position - b.position)
    .map(({ product }, index) => ({ ...product, number: product.rank ?? index + 1 }));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
