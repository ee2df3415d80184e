import { Search, X } from "lucide-react";
import { useEffect, useId, useState, type ReactNode } from "react";
import { QUERY_MAX_LENGTH } from "#src/contract/constants.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { cn } from "#web/lib/utils.ts";
import { EMPTY_HISTORY_FORM, isFiltered, type HistoryForm } from "#web/lib/history.ts";
import { Button, Input, NativeSelect, NativeSelectOption, PRO_ITERATION_CHOICES } from "#web/shared-chunk.ts";

/** The text box asks the server this long after typing stops. */
const TYPING_MS = 300;

/** The history's search box and filters; `onChange` gets the whole form each time one changes. */
export function HistoryFilterBar({ form, onChange }: { form: HistoryForm; onChange: (form: HistoryForm) => void }) {
  const ids = { q: useId(), provider: useId(), iterations: useId(), from: useId(), to: useId() };
  const [text, setText] = useState(form.q);
  const set = <K extends keyof HistoryForm>(field: K, value: HistoryForm[K]) => onChange({ ...form, [field]: value });

  useEffect(() => {
    if (text === form.q) return;
    const timer = setTimeout(() => onChange({ ...form, q: text }), TYPING_MS);
    return () => clearTimeout(timer);
  }, [text, form, onChange]);

  return (
    <form
      role="search"
      aria-label="Search history"
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-2 md:grid-cols-6 md:items-end"
      onSubmit={(event) => event.preventDefault()}
    >
      <Field id={ids.q} label="Search" className="sm:col-span-2 md:col-span-3">
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            id={ids.q}
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Query or title"
            className="pl-9"
            maxLength={QUERY_MAX_LENGTH}
          />
        </div>
      </Field>
      <Field id={ids.provider} label="Provider" className="md:col-span-2">
        <NativeSelect
          id={ids.provider}
          wrapperClassName="w-full"
          value={form.provider}
          onChange={(event) => set("provider", event.target.value as ProviderId | "")}
        >
          <NativeSelectOption value="">Any provider</NativeSelectOption>
          {providerIds.map((id) => (
            <NativeSelectOption key={id} value={id}>
              {providerCatalogue[id].name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </Field>
      <Field id={ids.iterations} label="Iterations">
        <NativeSelect id={ids.iterations} wrapperClassName="w-full" value={form.iterations} onChange={(event) => set("iterations", event.target.value)}>
          <NativeSelectOption value="">Any</NativeSelectOption>
          {PRO_ITERATION_CHOICES.map((n) => (
            <NativeSelectOption key={n} value={String(n)}>
              {String(n)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </Field>
      <Field id={ids.from} label="From" className="md:col-span-2">
        <Input id={ids.from} type="date" value={form.from} max={form.to || undefined} onChange={(event) => set("from", event.target.value)} />
      </Field>
      <Field id={ids.to} label="To" className="md:col-span-2">
        <Input id={ids.to} type="date" value={form.to} min={form.from || undefined} onChange={(event) => set("to", event.target.value)} />
      </Field>
      <label className="flex h-9 items-center gap-2 text-sm md:col-span-2">
        <input type="checkbox" className="size-4 accent-primary" checked={form.hideTrackers} onChange={(event) => set("hideTrackers", event.target.checked)} />
        Hide tracker runs
      </label>
      <Button
        type="button"
        variant="ghost"
        className="justify-self-start md:col-span-6"
        disabled={!isFiltered({ ...form, q: text })}
        onClick={() => {
          setText("");
          onChange(EMPTY_HISTORY_FORM);
        }}
      >
        <X aria-hidden="true" />
        Clear
      </Button>
    </form>
  );
}

function Field({ id, label, className, children }: { id: string; label: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn("min-w-0 space-y-1", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}
