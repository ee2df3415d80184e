import { useQuery } from "@tanstack/react-query";
import { Crown, Focus, Info, LoaderCircle, RotateCcw } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { Link } from "wouter";
import type { LensReport, ProviderLens } from "#src/contract/lens.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { CardHeading, EmptyText, SimulatedBadge } from "#web/components/results/shared.tsx";
import { RateBar } from "#web/components/workbench/rate-bar.tsx";
import { formatPercent } from "#web/lib/format.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { errorText, formatCountRate, ordinal } from "#web/lib/workbench.ts";
import {
  Alert,
  AlertDescription,
  AlertTitle,
  api,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  Input,
  Skeleton,
  useStartUpgrade,
} from "#web/shared-chunk.ts";

export type LensControl = {
  /** A brand named for this view only, instead of the profile's. */
  override: string | null;
  setOverride: (name: string | null) => void;
  /** The lens shown, for the exports (null when none is). */
  onLens: (lens: LensReport | null) => void;
};

/** The results view's Brand Lens tab: Pro only, on a saved search. */
export function LensTab({ searchId, isPro, control }: { searchId: string | undefined; isPro: boolean; control: LensControl }) {
  if (!isPro) return <ProOnly />;
  if (!searchId) return <EmptyText>The brand lens looks at saved searches; this result was not saved.</EmptyText>;
  return <Lens searchId={searchId} control={control} />;
}

function ProOnly() {
  const upgrade = useStartUpgrade();
  return (
    <Card className="items-center gap-3 py-10 text-center">
      <Crown className="size-8 text-amber-600" aria-hidden="true" />
      <h3 className="text-lg font-semibold">The Brand Lens is a Pro feature</h3>
      <p className="max-w-md px-6 text-sm text-muted-foreground">
        See how often each model mentions your brand, with 95% intervals, its share of voice against your competitors, where it stands among the recommended
        products, and whether your own domain is cited.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        {upgrade.offered ? (
          <Button type="button" onClick={() => void upgrade.start()}>
            <Crown aria-hidden="true" />
            Upgrade to Pro
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link href="/upgrade">What Pro includes</Link>
        </Button>
      </div>
    </Card>
  );
}

function Lens({ searchId, control }: { searchId: string; control: LensControl }) {
  const { override, setOverride, onLens } = control;
  const { data, error, isPending, isFetching } = useQuery(workbenchQueries.searchLens(api, searchId, override));
  const lens = data?.lens ?? null;
  useEffect(() => onLens(lens), [lens, onLens]);

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <Card className="min-w-0 gap-3">
        <CardHeader className="gap-2">
          <CardHeading>{lens ? `Brand Lens: ${lens.brand.name}` : "Brand Lens"}</CardHeading>
          {lens ? <CardDescription className="break-words">{describe(lens)}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-3">
          {override ? (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span>{`Showing “${override}” for this view only.`}</span>
              <Button type="button" variant="ghost" size="sm" onClick={() => setOverride(null)}>
                <RotateCcw aria-hidden="true" />
                Back to your brand
              </Button>
            </p>
          ) : null}
          <OverrideForm onApply={setOverride} busy={isFetching} />
        </CardContent>
      </Card>

      {isPending ? (
        <Skeleton className="h-64 w-full" aria-label="Loading the brand lens" role="status" />
      ) : error ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load the brand lens</AlertTitle>
          <AlertDescription>{errorText(error)}</AlertDescription>
        </Alert>
      ) : lens ? (
        <LensReportView lens={lens} />
      ) : (
        <Alert role="note">
          <Focus aria-hidden="true" />
          <AlertTitle>No brand named yet</AlertTitle>
          <AlertDescription>
            <p>
              Name your brand and competitors once in your profile, and every saved search shows how the models treat them.{" "}
              <Link href="/user/profile#brand-lens" className="font-medium text-foreground underline underline-offset-2">
                Set up your brand lens
              </Link>
            </p>
          </AlertDescription>
        </Alert>
      )}
    </div>
  );
}

function describe(lens: LensReport): string {
  const parts = [
    lens.brand.aliases.length > 0 ? `Also: ${lens.brand.aliases.join(", ")}` : "",
    lens.competitors.length > 0 ? `Against: ${lens.competitors.map((c) => c.name).join(", ")}` : "No competitors named",
  ];
  return parts.filter(Boolean).join(" · ");
}

function OverrideForm({ onApply, busy }: { onApply: (name: string) => void; busy: boolean }) {
  const id = useId();
  const [name, setName] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onApply(name.trim());
  };
  return (
    <form onSubmit={submit} className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-end">
      <div className="min-w-0 flex-1 space-y-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          Try another brand
        </label>
        <Input id={id} value={name} onChange={(event) => setName(event.target.value)} maxLength={80} placeholder="A brand or product name" />
      </div>
      <Button type="submit" variant="outline" disabled={busy || !name.trim()}>
        {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Focus aria-hidden="true" />}
        Show
      </Button>
    </form>
  );
}

function LensReportView({ lens }: { lens: LensReport }) {
  const shown = providerIds.flatMap((id) => {
    const view = lens.providers[id];
    return view ? [{ id, view }] : [];
  });
  return (
    <>
      {lens.basis === "displayed" ? (
        <Alert role="note">
          <Info aria-hidden="true" />
          <AlertTitle>The shown answers only</AlertTitle>
          <AlertDescription>This search was saved before every iteration was kept, so the lens covers each provider's shown answer only.</AlertDescription>
        </Alert>
      ) : null}
      {shown.length === 0 ? (
        <EmptyText>No provider answered this search, so there is nothing to look at.</EmptyText>
      ) : (
        <div className="grid min-w-0 gap-4 md:grid-cols-2">
          {shown.map(({ id, view }) => (
            <ProviderCard key={id} id={id} view={view} hasDomains={lens.brand.domains.length > 0} brand={lens.brand.name} />
          ))}
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        An answer mentions a brand when it names it or one of its other names as a whole word; an answer saying it could not find the brand does not count.
        Intervals are 95% Wilson intervals over the iterations.
      </p>
    </>
  );
}

function ProviderCard({ id, view, hasDomains, brand }: { id: ProviderId; view: ProviderLens; hasDomains: boolean; brand: string }) {
  const headingId = useId();
  const name = providerCatalogue[id].name;
  const n = view.mentionRate.n;
  const positions = [...view.positions].sort((a, b) => a.position - b.position);
  return (
    <Card className="min-w-0 gap-4" role="region" aria-labelledby={headingId}>
      <CardHeader className="gap-2">
        <CardHeading id={headingId}>{name}</CardHeading>
        {view.simulated ? <SimulatedBadge /> : null}
      </CardHeader>
      <CardContent className="space-y-5">
        <section className="space-y-1.5" aria-label={`Mention rate, ${name}`}>
          <h4 className="text-sm font-medium">Mention rate</h4>
          <p className="text-sm tabular-nums" data-testid="mention-rate">
            {formatCountRate(view.mentionRate)}
          </p>
          <RateBar rate={view.mentionRate} label={`${brand} mentioned by ${name}`} />
        </section>

        <section className="space-y-1.5">
          <h4 className="text-sm font-medium">Share of voice</h4>
          {view.shareOfVoice.every((entry) => entry.mentions === 0) ? (
            <EmptyText>None of the named brands was mentioned.</EmptyText>
          ) : (
            <ul className="space-y-2" aria-label={`Share of voice, ${name}`}>
              {view.shareOfVoice.map((entry) => (
                <li key={entry.name} className="space-y-1">
                  <div className="flex min-w-0 items-baseline justify-between gap-2 text-sm">
                    <span className={entry.isBrand ? "min-w-0 truncate font-semibold" : "min-w-0 truncate"} title={entry.name}>
                      {entry.name}
                    </span>
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{`${formatPercent(entry.share)} · ${entry.mentions} of ${n}`}</span>
                  </div>
                  <Bar share={entry.share} strong={entry.isBrand} />
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="space-y-1.5">
          <h4 className="text-sm font-medium">Position among recommended products</h4>
          <ul className="space-y-1.5" aria-label={`Positions, ${name}`}>
            {positions.map(({ position, count }) => (
              <PositionRow key={position} label={ordinal(position)} count={count} n={n} />
            ))}
            <PositionRow label="Not recommended" count={view.notRecommended} n={n} muted />
          </ul>
        </section>

        <section className="space-y-1">
          <h4 className="text-sm font-medium">Own domain cited</h4>
          {hasDomains ? (
            <>
              <p className="text-sm tabular-nums">{formatCountRate(view.domainCited)}</p>
              <RateBar rate={view.domainCited} label={`${brand}'s domain cited by ${name}`} />
            </>
          ) : (
            <p className="text-sm text-muted-foreground">
              No domain named.{" "}
              <Link href="/user/profile#brand-lens" className="underline underline-offset-2">
                Add yours
              </Link>
            </p>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

function PositionRow({ label, count, n, muted = false }: { label: string; count: number; n: number; muted?: boolean }) {
  return (
    <li className="grid grid-cols-[8.5rem_1fr_auto] items-center gap-2 text-sm">
      <span className={muted ? "text-muted-foreground" : undefined}>{label}</span>
      <Bar share={n > 0 ? (count / n) * 100 : 0} strong={!muted} />
      <span className="text-xs text-muted-foreground tabular-nums">{`${count} of ${n}`}</span>
    </li>
  );
}

function Bar({ share, strong }: { share: number; strong: boolean }) {
  return (
    <div className="h-2 w-full rounded-full bg-primary/15" aria-hidden="true">
      <div
        className={strong ? "h-full rounded-full bg-primary" : "h-full rounded-full bg-primary/50"}
        style={{ width: `${Math.min(100, Math.max(0, share))}%` }}
      />
    </div>
  );
}
