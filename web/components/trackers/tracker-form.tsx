import { CalendarCheck, ListPlus, LoaderCircle, X } from "lucide-react";
import { lazy, Suspense, useEffect, useId, type FormEvent, type ReactNode } from "react";
import type { ApiStatus } from "#src/contract/status.ts";
import type { CreateTracker, Tracker } from "#src/contract/trackers.ts";
import { MAX_TRACKER_COMPETITORS, MAX_TRACKER_QUERIES } from "#src/contract/trackers.ts";
import { TrackerDetectability, TrackerEstimate } from "#web/components/trackers/tracker-estimate.tsx";
import { Textarea } from "#web/components/ui/textarea.tsx";
import { useSchemaForm } from "#web/hooks/use-schema-form.ts";
import { SendTest } from "#web/components/trackers/tracker-webhook.tsx";
import {
  emptyRow,
  fieldOfRefusal,
  placeIssue,
  queryLines,
  TrackerForm as TrackerFormSchema,
  withQuestions,
  type CompetitorRow,
  type TrackerDraft,
} from "#web/lib/tracker-form.ts";
import { QuestionImport, QuestionSuggester, QuestionTagFields } from "#web/components/trackers/question-tools.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { browserTimeZone, WEEKDAYS, type ScheduleChoice } from "#web/lib/trackers.ts";
import { Button, Input, NativeSelect, NativeSelectOption, providerCatalogue, providerIds, Skeleton } from "#web/shared-chunk.ts";
import { Field } from "#web/components/ui/field.tsx";

// The search form loads these fields on demand; loading them here too keeps them one chunk, not two (ADR 006).
const LocationFields = lazy(() => import("#web/components/search/location-fields.tsx").then((m) => ({ default: m.LocationFields })));

type TrackerFormProps = {
  initial: TrackerDraft;
  status: ApiStatus | undefined;
  /** The saved tracker being edited (its estimate at today's prices is shown too). */
  saved?: Tracker;
  submitLabel: string;
  /** Sends the checked values; resolves once done (the page moves on) or throws (the form says why). */
  onSave: (input: CreateTracker) => Promise<void>;
  /** Whether a new form takes the browser's time zone once hydrated (the server cannot know it). */
  localTimeZone: boolean;
  children?: ReactNode;
};

/**
 * The tracker form (new and edit): name, questions, brand and competitors, providers, iterations,
 * where it asks from, the schedule (a preset or cron, in a time zone), an optional monthly budget,
 * an optional webhook, and, before saving, what a run and a month should cost and what change it can tell. Checked by
 * the contract's CreateTracker.
 */
export function TrackerForm({ initial, status, saved, submitLabel, onSave, localTimeZone, children }: TrackerFormProps) {
  const form = useSchemaForm(TrackerFormSchema, initial, placeIssue);
  const { values, errors, set, change } = form;
  const id = useId();

  // The server rendered the form in its own time zone; the person's is the browser's.
  useEffect(() => {
    if (localTimeZone) set("timezone", browserTimeZone());
    // Once, as the form appears (`set` is new with every value).
  }, [localTimeZone]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    const input = form.submitted(event);
    if (!input) return;
    form.setBusy(true);
    try {
      await onSave(input);
    } catch (error) {
      // The page said why; a refusal about one field (a webhook address the server will not post to) shows on it too.
      const message = errorText(error);
      const field = fieldOfRefusal(message);
      if (field) form.fail(field, message);
    } finally {
      form.setBusy(false);
    }
  }

  const setRow = (key: number, change: Partial<CompetitorRow>) =>
    set(
      "competitors",
      values.competitors.map((row) => (row.key === key ? { ...row, ...change } : row)),
    );
  const questions = queryLines(values.queries).length;

  return (
    <form ref={form.formRef} onSubmit={submit} noValidate aria-busy={form.busy} aria-label="Tracker" className="space-y-8">
      <Section title="What to ask">
        <Field id={`${id}-name`} label="Name" error={errors.name}>
          <Input
            id={`${id}-name`}
            value={values.name}
            onChange={change("name")}
            placeholder="e.g. CRM questions, weekly"
            {...invalid(errors.name, `${id}-name`)}
          />
        </Field>
        <Field
          id={`${id}-queries`}
          label="Questions"
          hint={`One per line, as your buyers would ask them: ${questions} of at most ${MAX_TRACKER_QUERIES}.`}
          error={errors.queries}
        >
          <Textarea
            id={`${id}-queries`}
            value={values.queries}
            onChange={change("queries")}
            rows={5}
            placeholder={"best CRM for startups\nHubSpot vs Salesforce for a small team"}
            {...invalid(errors.queries, `${id}-queries`, true)}
          />
        </Field>
        {errors.questionTags ? <p className="text-sm text-destructive">{errors.questionTags}</p> : null}
        <QuestionTagFields queries={values.queries} tags={values.questionTags} onTags={(tags) => set("questionTags", tags)} />
        <QuestionImport queries={values.queries} onAdd={(added) => form.update(withQuestions(values, added))} />
        <QuestionSuggester queries={values.queries} brand={values.brandName} onAccept={(question) => form.update(withQuestions(values, [{ question }]))} />
      </Section>

      <Section title="Your brand" description="Prefilled from your profile's brand lens: what each answer is checked for.">
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id={`${id}-brand`} label="Brand name" error={errors.brandName}>
            <Input id={`${id}-brand`} value={values.brandName} onChange={change("brandName")} maxLength={80} {...invalid(errors.brandName, `${id}-brand`)} />
          </Field>
          <Field id={`${id}-aliases`} label="Other names" hint="Comma-separated" error={errors.brandAliases}>
            <Input
              id={`${id}-aliases`}
              value={values.brandAliases}
              onChange={change("brandAliases")}
              {...invalid(errors.brandAliases, `${id}-aliases`, true)}
            />
          </Field>
          <Field id={`${id}-domains`} label="Your domains" hint="Comma-separated, e.g. acme.com" error={errors.brandDomains}>
            <Input
              id={`${id}-domains`}
              value={values.brandDomains}
              onChange={change("brandDomains")}
              {...invalid(errors.brandDomains, `${id}-domains`, true)}
            />
          </Field>
        </div>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium">{`Competitors (up to ${MAX_TRACKER_COMPETITORS})`}</legend>
          {errors.competitors ? <p className="text-sm text-destructive">{errors.competitors}</p> : null}
          <ul className="space-y-3">
            {values.competitors.map((row, index) => {
              const problem = errors[`competitors.${index}`];
              const rowId = `${id}-c${row.key}`;
              return (
                <li key={row.key} className="grid items-end gap-2 rounded-lg border p-3 sm:grid-cols-[1fr_1fr_1fr_auto]">
                  <Field id={rowId} label={`Competitor ${index + 1}`} error={problem}>
                    <Input
                      id={rowId}
                      value={row.name}
                      onChange={(event) => setRow(row.key, { name: event.target.value })}
                      maxLength={80}
                      {...invalid(problem, rowId)}
                    />
                  </Field>
                  <Field id={`${rowId}-aliases`} label="Other names">
                    <Input id={`${rowId}-aliases`} value={row.aliases} onChange={(event) => setRow(row.key, { aliases: event.target.value })} />
                  </Field>
                  <Field id={`${rowId}-domains`} label="Domains">
                    <Input id={`${rowId}-domains`} value={row.domains} onChange={(event) => setRow(row.key, { domains: event.target.value })} />
                  </Field>
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    onClick={() =>
                      set(
                        "competitors",
                        values.competitors.filter((other) => other.key !== row.key),
                      )
                    }
                  >
                    <X aria-hidden="true" />
                    Remove
                    <span className="sr-only">{` competitor ${index + 1}`}</span>
                  </Button>
                </li>
              );
            })}
          </ul>
          {values.competitors.length < MAX_TRACKER_COMPETITORS ? (
            <Button type="button" variant="outline" size="sm" onClick={() => set("competitors", [...values.competitors, emptyRow()])}>
              <ListPlus aria-hidden="true" />
              Add competitor
            </Button>
          ) : null}
        </fieldset>
      </Section>

      <Section title="How to ask">
        <fieldset className="space-y-2" aria-describedby={errors.providers ? `${id}-providers-error` : undefined}>
          <legend className="text-sm font-medium">Providers</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {providerIds.map((provider) => {
              const connected = status ? status.modes[provider] !== "off" : true;
              return (
                <label key={provider} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={values.providers.includes(provider)}
                    disabled={!connected}
                    onChange={(event) =>
                      set(
                        "providers",
                        providerIds.filter((other) => (other === provider ? event.target.checked : values.providers.includes(other))),
                      )
                    }
                  />
                  {providerCatalogue[provider].name}
                  {connected ? null : <span className="text-muted-foreground">(not connected)</span>}
                </label>
              );
            })}
          </div>
          {errors.providers ? (
            <p id={`${id}-providers-error`} className="text-sm text-destructive">
              {errors.providers}
            </p>
          ) : null}
        </fieldset>
        <Field
          id={`${id}-iterations`}
          label="Iterations per question"
          hint="Each provider is asked each question this many times a run (1 to 100)."
          error={errors.iterations}
        >
          <Input
            id={`${id}-iterations`}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={values.iterations}
            onChange={change("iterations")}
            className="w-32"
            {...invalid(errors.iterations, `${id}-iterations`, true)}
          />
        </Field>
        <Suspense fallback={<Skeleton className="h-16 w-full sm:w-56" aria-label="Loading" />}>
          <LocationFields initial={values.location} onChange={(location) => set("location", location)} />
        </Suspense>
        {errors.location ? <p className="text-sm text-destructive">{errors.location}</p> : null}
      </Section>

      <Section title="When to ask">
        <ScheduleFields id={id} choice={values.schedule} onChoice={(choice) => set("schedule", choice)} error={errors.schedule} />
        <Field id={`${id}-timezone`} label="Time zone" hint="An IANA time zone, such as Europe/Berlin" error={errors.timezone}>
          <Input
            id={`${id}-timezone`}
            value={values.timezone}
            onChange={change("timezone")}
            className="sm:w-72"
            {...invalid(errors.timezone, `${id}-timezone`, true)}
          />
        </Field>
        <Field
          id={`${id}-budget`}
          label="Monthly budget in US dollars (optional)"
          hint="Runs stop for the month once it is spent."
          error={errors.monthlyBudgetUsd}
        >
          <Input
            id={`${id}-budget`}
            type="number"
            inputMode="decimal"
            min={0.01}
            step="0.01"
            value={values.monthlyBudgetUsd}
            onChange={change("monthlyBudgetUsd")}
            className="w-40"
            {...invalid(errors.monthlyBudgetUsd, `${id}-budget`, true)}
          />
        </Field>
        <Field
          id={`${id}-alert-window`}
          label="Runs compared by an alert"
          hint="With 1, the latest run and the latest two are tested against up to 28 runs before them; more test larger windows of the latest runs, which see smaller changes, later."
          error={errors.alertWindow}
        >
          <Input
            id={`${id}-alert-window`}
            type="number"
            inputMode="numeric"
            min={1}
            max={10}
            step="1"
            value={values.alertWindow}
            onChange={change("alertWindow")}
            className="w-24"
            {...invalid(errors.alertWindow, `${id}-alert-window`, true)}
          />
        </Field>
      </Section>

      <WebhookFields id={id} values={values} errors={errors} set={set} change={change} saved={saved} />

      {/* Before saving: what a run costs, and what change it can tell. */}
      <div className="grid gap-4 md:grid-cols-2">
        <TrackerEstimate draft={values} status={status} saved={saved} />
        <TrackerDetectability draft={values} />
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={form.busy}>
          {form.busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CalendarCheck aria-hidden="true" />}
          {submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}

type Form = ReturnType<typeof useSchemaForm<typeof TrackerFormSchema>>;

/**
 * Where its runs' ends, alerts and missed runs are posted: a URL and its format (our JSON, signed, or
 * a Slack incoming webhook); on an edit with one saved, a new secret on save, removing it, and Send test.
 */
function WebhookFields({ id, values, errors, set, change, saved }: Pick<Form, "values" | "errors" | "set" | "change"> & { id: string; saved?: Tracker }) {
  const hook = saved?.webhook;
  const edited = hook && (values.webhookUrl.trim() !== hook.url || values.webhookFormat !== hook.format);
  const formats: [TrackerDraft["webhookFormat"], string][] = [
    ["json", "JSON (signed, for your own endpoint)"],
    ["slack", "Slack (incoming webhook)"],
  ];
  return (
    <Section title="Webhook" description="Optional: each run's end, alerts and runs that did not happen, posted to a URL as they happen.">
      <Field
        id={`${id}-webhook`}
        label="Webhook URL"
        hint={hook ? "Blank removes the webhook when you save." : "Blank for none, e.g. https://hooks.slack.com/services/…"}
        error={errors.webhookUrl}
      >
        <Input
          id={`${id}-webhook`}
          type="url"
          inputMode="url"
          spellCheck={false}
          value={values.webhookUrl}
          onChange={change("webhookUrl")}
          placeholder="https://"
          {...invalid(errors.webhookUrl, `${id}-webhook`, true)}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Format</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {formats.map(([format, label]) => (
            <label key={format} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-webhook-format`}
                className="size-4 accent-primary"
                checked={values.webhookFormat === format}
                onChange={() => set("webhookFormat", format)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {hook ? (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={values.rotateSecret}
                disabled={!values.webhookUrl.trim()}
                onChange={(event) => set("rotateSecret", event.target.checked)}
              />
              Make a new signing secret on save (the old one stops at once)
            </label>
            <Button type="button" variant="ghost" size="sm" className="text-destructive" disabled={!values.webhookUrl} onClick={() => set("webhookUrl", "")}>
              <X aria-hidden="true" />
              Remove webhook
            </Button>
          </div>
          <SendTest
            trackerId={saved.id}
            note={edited ? `Tests the saved webhook (${hook.url}, ${hook.format}): save changes first to test the new one.` : undefined}
          />
        </div>
      ) : null}
    </Section>
  );
}

/** A daily or weekly preset at a time, or five cron fields of the person's own. */
function ScheduleFields({
  id,
  choice,
  onChoice,
  error,
}: {
  id: string;
  choice: ScheduleChoice;
  onChoice: (choice: ScheduleChoice) => void;
  error?: string | undefined;
}) {
  const time = choice.kind === "custom" ? "09:00" : choice.time;
  const kinds: [ScheduleChoice["kind"], string][] = [
    ["daily", "Daily"],
    ["weekly", "Weekly"],
    ["custom", "Custom (cron)"],
  ];
  const pick = (kind: ScheduleChoice["kind"]) =>
    onChoice(
      kind === "daily" ? { kind, time } : kind === "weekly" ? { kind, day: choice.kind === "weekly" ? choice.day : 1, time } : { kind, cron: "0 9 * * 1" },
    );
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium">Schedule</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {kinds.map(([kind, label]) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${id}-schedule`} className="size-4 accent-primary" checked={choice.kind === kind} onChange={() => pick(kind)} />
            {label}
          </label>
        ))}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        {choice.kind === "weekly" ? (
          <Field id={`${id}-day`} label="Day">
            <NativeSelect
              id={`${id}-day`}
              value={String(choice.day)}
              onChange={(event) => onChoice({ ...choice, day: Number(event.target.value) })}
              wrapperClassName="w-full sm:w-44"
              className="w-full"
            >
              {WEEKDAYS.map((day, index) => (
                <NativeSelectOption key={day} value={index}>
                  {day}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </Field>
        ) : null}
        {choice.kind === "custom" ? (
          <Field id={`${id}-cron`} label="Cron" hint="Minute, hour, day of month, month, day of week: 0 9 * * 1-5 is 09:00 on weekdays" error={error}>
            <Input
              id={`${id}-cron`}
              value={choice.cron}
              onChange={(event) => onChoice({ kind: "custom", cron: event.target.value })}
              className="font-mono sm:w-72"
              {...invalid(error, `${id}-cron`, true)}
            />
          </Field>
        ) : (
          <Field id={`${id}-time`} label="At" error={error}>
            <Input
              id={`${id}-time`}
              type="time"
              value={choice.time}
              onChange={(event) => onChoice({ ...choice, time: event.target.value })}
              className="w-36"
              {...invalid(error, `${id}-time`)}
            />
          </Field>
        )}
      </div>
    </fieldset>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6" aria-label={title}>
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{title}</h2>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** The attributes tying a field to its message (and hint), marking it invalid for the focus and screen readers. */
function invalid(error: string | undefined, id: string, hinted = false) {
  const described = [hinted ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": described || undefined };
}
