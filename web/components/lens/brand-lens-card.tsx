import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Save, Trash2 } from "lucide-react";
import { useEffect, useId, useState, type ReactNode } from "react";
import type { BrandEntry, BrandLensSettings } from "#src/contract/lens.ts";
import { ProNote, SettingsCard } from "#web/components/account/settings-card.tsx";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { competitorEntries, competitorRow, emptyCompetitorRow, type CompetitorRow } from "#web/lib/brand-rows.ts";
import { errorText, splitList } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, CardFooter, Input, Skeleton, toast } from "#web/shared-chunk.ts";
import { Field } from "#web/components/ui/field.tsx";

/** The competitors the form offers at most (the API takes 20). */
const MAX_COMPETITORS = 20;

/**
 * The brand lens settings on the profile: the person's brand (other names, own domains) and
 * competitors (each with other names and domains, as a tracker's), saved with PUT /api/user/brand-lens. Anyone signed in can
 * keep them; the lens itself shows on results for Pro.
 */
export function BrandLensCard() {
  const settings = useQuery(workbenchQueries.brandLens(api));
  // The results' "Set up your brand lens" links here: a client-side navigation does not scroll to the anchor by itself.
  useEffect(() => {
    if (window.location.hash === "#brand-lens") document.getElementById("brand-lens")?.scrollIntoView();
  }, []);

  return (
    <SettingsCard
      id="brand-lens"
      title="Brand lens"
      description="Name your brand once: each result then shows how often every model mentions it, where it stands among the products they recommend, its share of voice against your competitors, and whether your own domain is cited."
    >
      <ProNote title="The lens shows on results for Pro">You can name your brand now; with Pro, every saved search shows it through the lens.</ProNote>
      {settings.isPending ? (
        <Skeleton className="h-48 w-full" aria-label="Loading your brand lens" />
      ) : settings.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your brand lens</AlertTitle>
          <AlertDescription>{errorText(settings.error)}</AlertDescription>
        </Alert>
      ) : (
        <BrandLensForm initial={settings.data} />
      )}
    </SettingsCard>
  );
}

function BrandLensForm({ initial }: { initial: BrandLensSettings }) {
  const queryClient = useQueryClient();
  const ids = { name: useId(), aliases: useId(), domains: useId(), error: useId() };
  const [name, setName] = useState(initial.brand?.name ?? "");
  const [aliases, setAliases] = useState(initial.brand?.aliases.join(", ") ?? "");
  const [domains, setDomains] = useState(initial.brand?.domains.join(", ") ?? "");
  // Keys by position, not competitorRow's counter: they make the fields' ids, which the server's render and the browser's must share.
  const [competitors, setCompetitors] = useState<CompetitorRow[]>(() => initial.competitors.map((entry, key) => ({ ...competitorRow(entry), key })));
  const [nextKey, setNextKey] = useState(initial.competitors.length);

  const save = useMutation({
    mutationFn: () => {
      const brand: BrandEntry | null = name.trim() ? { name: name.trim(), aliases: splitList(aliases), domains: splitList(domains) } : null;
      return api.saveBrandLens({ brand, competitors: competitorEntries(competitors) });
    },
    onSuccess: async (saved) => {
      queryClient.setQueryData(workbenchQueries.brandLens(api).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: ["workbench", "lens"] });
      toast({
        title: "Brand lens saved",
        description: saved.brand ? `Results now show how the models treat ${saved.brand.name}.` : "No brand is named: the lens is off.",
      });
    },
  });

  const setRow = (key: number, change: Partial<CompetitorRow>) => setCompetitors((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <form
      className="space-y-4"
      aria-label="Brand lens settings"
      aria-describedby={save.isError ? ids.error : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={ids.name} label="Brand name" hint="As people write it, e.g. Acme">
          <Input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} maxLength={80} aria-describedby={`${ids.name}-hint`} />
        </Field>
        <Field id={ids.aliases} label="Other names" hint="Comma-separated, e.g. Acme Corp, ACME Rocket">
          <Input id={ids.aliases} value={aliases} onChange={(event) => setAliases(event.target.value)} aria-describedby={`${ids.aliases}-hint`} />
        </Field>
        <Field id={ids.domains} label="Your domains" hint="Comma-separated, e.g. acme.com">
          <Input id={ids.domains} value={domains} onChange={(event) => setDomains(event.target.value)} aria-describedby={`${ids.domains}-hint`} />
        </Field>
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Competitors</legend>
        {competitors.length === 0 ? (
          <p className="text-sm text-muted-foreground">None yet. Competitors are what your share of voice is measured against.</p>
        ) : null}
        <ul className="space-y-3">
          {competitors.map((row, index) => (
            <li key={row.key} className="grid items-end gap-2 rounded-lg border p-3 sm:grid-cols-[1fr_1fr_1fr_auto]">
              <Field id={`${ids.name}-c${row.key}`} label={`Competitor ${index + 1}`}>
                <Input id={`${ids.name}-c${row.key}`} value={row.name} onChange={(event) => setRow(row.key, { name: event.target.value })} maxLength={80} />
              </Field>
              <Field id={`${ids.aliases}-c${row.key}`} label={`Competitor ${index + 1}: other names`}>
                <Input id={`${ids.aliases}-c${row.key}`} value={row.aliases} onChange={(event) => setRow(row.key, { aliases: event.target.value })} />
              </Field>
              <Field id={`${ids.domains}-c${row.key}`} label={`Competitor ${index + 1}: domains`} hint="Comma-separated">
                <Input
                  id={`${ids.domains}-c${row.key}`}
                  value={row.domains}
                  onChange={(event) => setRow(row.key, { domains: event.target.value })}
                  aria-describedby={`${ids.domains}-c${row.key}-hint`}
                />
              </Field>
              <Button type="button" variant="ghost" size="sm" onClick={() => setCompetitors((rows) => rows.filter((other) => other.key !== row.key))}>
                <Trash2 aria-hidden="true" />
                Remove
                <span className="sr-only">{` competitor ${index + 1}`}</span>
              </Button>
            </li>
          ))}
        </ul>
        {competitors.length < MAX_COMPETITORS ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              setCompetitors((rows) => [...rows, { ...emptyCompetitorRow(), key: nextKey }]);
              setNextKey((key) => key + 1);
            }}
          >
            <Plus aria-hidden="true" />
            Add competitor
          </Button>
        ) : null}
      </fieldset>

      {save.isError ? (
        <Alert variant="destructive" id={ids.error} role="alert">
          <AlertTitle>Could not save your brand lens</AlertTitle>
          <AlertDescription>{errorText(save.error)}</AlertDescription>
        </Alert>
      ) : null}
      <CardFooter className="px-0">
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden="true" />
          Save brand lens
        </Button>
      </CardFooter>
    </form>
  );
}
