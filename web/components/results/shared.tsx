import { ExternalLink, FlaskConical } from "lucide-react";
import type { ReactNode } from "react";
import { listModels, providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SimulatedProviders } from "#src/contract/lens.ts";
import type { Returned, ReturnedBy } from "#src/core/aggregate.ts";
import { sourceLabel } from "#src/core/urls.ts";
import { safeHref } from "#web/lib/format.ts";
import { cn } from "#web/lib/utils.ts";
import { Badge, Card, CardContent, CardDescription, CardHeader } from "#web/shared-chunk.ts";

/** Per provider, whether its answers were simulated (src/contract/lens.ts `simulatedOf` reads them from a result). */
export type SimulatedFlags = SimulatedProviders;

/**
 * Honesty rule, the clear label: once per simulated answer (its card, its frequency panel), next
 * to the results' banner. Where the same answer shows up again it gets the quieter SimulatedMark.
 */
export function SimulatedBadge({ className }: { className?: string }) {
  return (
    <Badge
      variant="outline"
      data-simulated="label"
      className={cn("border-amber-500 bg-amber-50 text-amber-900 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100", className)}
      title="This answer comes from our simulator, not from the live provider"
    >
      <FlaskConical aria-hidden="true" />
      Simulated
    </Badge>
  );
}

/** Honesty rule: which providers' answers come from the simulator, said once under what shows them (each marked with a flask). */
export function SimulatedProvidersNote({ ids }: { ids: readonly ProviderId[] }) {
  if (ids.length === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
      <SimulatedBadge />
      {`${listModels(ids)}: answers from our simulator, not from the live provider (marked with a flask).`}
    </p>
  );
}

/** Honesty rule, the quiet mark: a flask beside a simulated provider's name where the label would repeat ("(simulated)" to screen readers). */
export function SimulatedMark({ className }: { className?: string }) {
  return (
    <span
      data-simulated="mark"
      title="Simulated: this answer comes from our simulator"
      className={cn("inline-flex shrink-0 text-amber-700 dark:text-amber-300", className)}
    >
      <FlaskConical className="size-3.5" aria-hidden="true" />
      <span className="sr-only">(simulated)</span>
    </span>
  );
}

/**
 * Which models returned an item, as small badges, a simulated one with its quiet mark; over
 * several iterations each with how often ("7/25", ADR 028).
 */
export function ModelBadges({ models, simulated, returned }: { models: ProviderId[]; simulated: SimulatedFlags; returned?: ReturnedBy["returned"] }) {
  const ordered = providerIds.filter((id) => models.includes(id));
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Returned by">
      {ordered.map((id) => {
        const often = returned?.[id];
        return (
          <li key={id}>
            <Badge variant="secondary" title={often && often.n > 1 ? `${providerCatalogue[id].model}: in ${often.count} of ${often.n} iterations` : undefined}>
              {providerCatalogue[id].model}
              {simulated[id] ? <SimulatedMark className="[&>svg]:size-3" /> : null}
              <HowOften returned={often} className="font-normal" />
            </Badge>
          </li>
        );
      })}
    </ul>
  );
}

/** How often a provider returned an item over several iterations: "7/25", read "in 7 of 25 iterations"; nothing for a single answer. */
export function HowOften({ returned, className }: { returned: Returned | undefined; className?: string }) {
  if (!returned || returned.n <= 1) return null;
  return (
    <span className={cn("text-muted-foreground tabular-nums", className)} data-testid="returned-often">
      <span aria-hidden="true">{`${returned.count}/${returned.n}`}</span>
      <span className="sr-only">{`, in ${returned.count} of ${returned.n} iterations`}</span>
    </span>
  );
}

/**
 * A source as a link opening in a new tab (its label, host and short path, or the full URL with
 * `show="url"`), its title on hover. Anything that is not a valid http(s) URL is shown as plain
 * text, never as a link.
 */
export function SourceLink({
  source,
  show = "label",
  className,
}: {
  source: { url: string; title?: string | undefined };
  show?: "label" | "url";
  className?: string;
}) {
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
      className={cn(
        "inline-flex max-w-full min-w-0 items-center gap-1 text-blue-700 underline-offset-2 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none dark:text-blue-300",
        className,
      )}
    >
      <span className="truncate">{text}</span>
      <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

/** ✓ for true, ✗ (or `no`, e.g. the compare page's dash) for false, with "Yes"/"No" for screen readers; or the string itself. */
export function Mark({ value, no = "✗" }: { value: boolean | string; no?: string }) {
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
        {no}
      </span>
      <span className="sr-only">No</span>
    </>
  );
}

export function EmptyText({ children }: { children: ReactNode }) {
  return <p className="py-2 text-sm text-muted-foreground">{children}</p>;
}

/** The items as a list (`children` renders each `<li>`), or the spec's empty text when there are none. */
export function ListOrEmpty<T>({
  items,
  empty,
  ordered = false,
  className,
  label,
  children,
}: {
  items: readonly T[];
  empty: string;
  ordered?: boolean;
  className?: string;
  label?: string;
  children: (item: T, index: number) => ReactNode;
}) {
  if (items.length === 0) return <EmptyText>{empty}</EmptyText>;
  const List = ordered ? "ol" : "ul";
  return (
    <List className={className} aria-label={label}>
      {items.map(children)}
    </List>
  );
}

/** A card's title as a level-3 heading (the ui CardTitle is a div). */
export function CardHeading({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h3 id={id} data-slot="card-title" className="leading-none font-semibold">
      {children}
    </h3>
  );
}

/** The card every results section sits in: a heading, an optional line under it, the content. */
export function ResultCard({
  title,
  description,
  className,
  contentClassName,
  children,
}: {
  title: string;
  description?: string;
  className?: string;
  contentClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card className={cn("gap-4", className)}>
      <CardHeader>
        <CardHeading>{title}</CardHeading>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
