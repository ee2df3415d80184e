import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { changesOf, draftOf, draftShape, newDraft, placeIssue, shapeKey, TrackerForm, type TrackerDraft } from "#web/lib/tracker-form.ts";
import { choiceOf, cronOf, runsPerMonth } from "#web/lib/trackers.ts";

/*
 * The tracker form's pure parts: the presets written as cron and read back, the
 * fields becoming the contract's CreateTracker (and its issues shown on the right field), and
 * an edit sending only what changed (a change of queries or providers starts a new series).
 */

const LENS = {
  brand: { name: "Acme", aliases: ["Acme Corp"], domains: ["acme.example"] },
  competitors: Array.from({ length: 12 }, (_, i) => ({ name: `Rival ${i + 1}`, aliases: [], domains: [] })),
};

function draft(change: Partial<TrackerDraft> = {}): TrackerDraft {
  return { ...newDraft(LENS, ["openai", "gemini"], "Europe/Berlin"), name: "CRM", queries: "best crm\n\n  crm with a free plan  \n", ...change };
}

describe("schedule presets", () => {
  test("daily and weekly presets are written as cron and read back; any other cron is custom", () => {
    expect(cronOf({ kind: "daily", time: "07:30" })).toBe("30 7 * * *");
    expect(cronOf({ kind: "weekly", day: 5, time: "18:05" })).toBe("5 18 * * 5");
    expect(choiceOf("30 7 * * *")).toEqual({ kind: "daily", time: "07:30" });
    expect(choiceOf("5 18 * * 5")).toEqual({ kind: "weekly", day: 5, time: "18:05" });
    expect(choiceOf("0 9 * * 1-5")).toEqual({ kind: "custom", cron: "0 9 * * 1-5" });
    expect(choiceOf("0 25 * * *")).toEqual({ kind: "custom", cron: "0 25 * * *" });
  });

  test("a month of a preset is 30 days of runs, as the server counts it; a custom cron is left to the server", () => {
    expect(runsPerMonth({ kind: "daily", time: "09:00" })).toBe(30);
    expect(runsPerMonth({ kind: "weekly", day: 1, time: "09:00" })).toBeCloseTo(30 / 7);
    expect(runsPerMonth({ kind: "custom", cron: "0 * * * *" })).toBeNull();
  });
});

describe("the form on the contract", () => {
  test("a new form starts from the brand lens (at most 10 competitors) and becomes what POST /api/trackers takes", () => {
    const parsed = v.parse(TrackerForm, draft());
    expect(parsed).toEqual({
      name: "CRM",
      queries: ["best crm", "crm with a free plan"],
      brand: { name: "Acme", aliases: ["Acme Corp"], domains: ["acme.example"] },
      competitors: LENS.competitors.slice(0, 10),
      providers: ["openai", "gemini"],
      iterations: 5,
      schedule: { cron: "0 9 * * 1", timezone: "Europe/Berlin" },
      alertWindow: 1,
      questionTags: {},
    });
  });

  test("the contract's issues land on the form's fields, a question named by its line", () => {
    const result = v.safeParse(TrackerForm, draft({ name: " ", queries: `ok\n${"x".repeat(600)}`, iterations: "0", timezone: "Mars/Base", providers: [] }));
    if (result.success) throw new Error("the form should not pass");
    const placed = Object.fromEntries(Object.entries(v.flatten(result.issues).nested ?? {}).map(([path, messages]) => placeIssue(path, messages?.[0] ?? "")));
    expect(placed.name).toBe("name is required");
    expect(placed.queries).toStartWith("Question 2: ");
    expect(placed.iterations).toBe("iterations must be a whole number from 1 to 100");
    expect(placed.timezone).toStartWith("schedule.timezone must be an IANA time zone");
    expect(placed.providers).toBe("providers must name at least one provider");
    expect(placeIssue("brand.domains.0", "A domain looks like example.com")).toEqual(["brandDomains", "A domain looks like example.com"]);
    expect(placeIssue("competitors.3.name", "A name is required")).toEqual(["competitors.3", "A name is required"]);
    expect(placeIssue("schedule.cron", "schedule.cron must have five fields")).toEqual(["schedule", "schedule.cron must have five fields"]);
  });

  test("an edit sends only what changed: an untouched form sends nothing, a removed location is null", () => {
    const tracker: Tracker = {
      id: "t1",
      workspaceId: "w1",
      name: "CRM",
      queries: ["best crm"],
      brand: { name: "Acme", aliases: [], domains: [] },
      competitors: [],
      providers: ["openai", "anthropic"],
      iterations: 5,
      location: { country: "DE", city: "Berlin" },
      schedule: { cron: "0 9 * * 1", timezone: "Europe/Berlin" },
      scheduleText: "Every Monday at 09:00 (Europe/Berlin)",
      alertWindow: 2,
      paused: false,
      segment: 1,
      nextRunAt: null,
      savedSearches: 0,
      lastRun: null,
      stall: null,
      estimate: { perRunUsd: 0, perMonthUsd: 0, simulated: true },
      createdAt: "2026-11-26T10:00:00.000Z",
      updatedAt: "2026-11-26T10:00:00.000Z",
    };
    expect(changesOf(tracker, v.parse(TrackerForm, draftOf(tracker)))).toEqual({});
    const edited = v.parse(TrackerForm, { ...draftOf(tracker), name: "CRM weekly", location: undefined, schedule: { kind: "daily", time: "08:00" } });
    expect(changesOf(tracker, edited)).toEqual({ name: "CRM weekly", location: null, schedule: { cron: "0 8 * * *", timezone: "Europe/Berlin" } });
    // The alert window is a field of its own: kept when untouched (above), sent when changed.
    expect(changesOf(tracker, v.parse(TrackerForm, { ...draftOf(tracker), alertWindow: "3" }))).toEqual({ alertWindow: 3 });

    // The webhook: untouched sends nothing; a blank URL removes it (null); a new format or a rotation sends it whole.
    const hooked: Tracker = { ...tracker, webhook: { url: "https://hooks.slack.com/services/T/B/x", format: "slack" } };
    const draft = draftOf(hooked);
    expect(draft).toMatchObject({ webhookUrl: "https://hooks.slack.com/services/T/B/x", webhookFormat: "slack", rotateSecret: false });
    expect(changesOf(hooked, v.parse(TrackerForm, draft))).toEqual({});
    expect(changesOf(hooked, v.parse(TrackerForm, { ...draft, webhookUrl: " " }))).toEqual({ webhook: null });
    expect(changesOf(hooked, v.parse(TrackerForm, { ...draft, webhookFormat: "json" }))).toEqual({
      webhook: { url: "https://hooks.slack.com/services/T/B/x", format: "json" },
    });
    expect(changesOf(hooked, v.parse(TrackerForm, { ...draft, rotateSecret: true }))).toEqual({
      webhook: { url: "https://hooks.slack.com/services/T/B/x", format: "slack", rotateSecret: true },
    });
    expect(changesOf(tracker, v.parse(TrackerForm, draftOf(tracker)))).toEqual({});
    expect(placeIssue("webhook.url", "webhook.url must be a URL")).toEqual(["webhookUrl", "webhook.url must be a URL"]);
  });
});

describe("what it can see", () => {
  test("the draft's shape: its questions, iterations, providers and named competitors; none while one is missing or out of range", () => {
    const rows = draft().competitors;
    const shape = draftShape(draft({ competitors: [...rows.slice(0, 2), { ...rows[2]!, name: "  " }] }));
    expect(shape).toEqual({ questions: 2, iterations: 5, providers: 2, competitors: 2 });
    expect(shapeKey(shape)).toBe("2/5/2/2");
    // Every provider of the catalogue ticked is a shape too.
    expect(draftShape(draft({ providers: [...providerIds] }))?.providers).toBe(providerIds.length);
    for (const change of [{ queries: " \n" }, { iterations: "" }, { iterations: "0" }, { iterations: "101" }, { iterations: "2.5" }, { providers: [] }])
      expect({ change, shape: draftShape(draft(change)) }).toEqual({ change, shape: null });
    expect(shapeKey(null)).toBe("");
  });
});
