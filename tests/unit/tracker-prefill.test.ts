import { describe, expect, test } from "bun:test";
import { MAX_TRACKER_COMPETITORS, MAX_TRACKER_QUERIES, TRACKER_NAME_MAX_LENGTH } from "#src/contract/trackers.ts";
import { QUERY_MAX_LENGTH } from "#src/contract/constants.ts";
import { newDraft, prefilledDraft } from "#web/lib/tracker-form.ts";
import { readTrackerPrefill, trackerPrefillHref } from "#web/lib/tracker-prefill.ts";

// "Track these questions every week": a finished search's link to a new tracker's form, and what
// the form takes from a URL anyone can write.
const read = (href: string) => readTrackerPrefill(new URL(href, "http://localhost").searchParams);

describe("the prefill link", () => {
  test("its query, brand and competitors come back as they were written", () => {
    const prefill = { queries: ["best crm for startups", "crm & sales: 50% off?"], brand: "Pipedrive", competitors: ["HubSpot", "Zoho CRM"] };
    const href = trackerPrefillHref(prefill);
    expect(href.startsWith("/trackers/new?")).toBe(true);
    expect(read(href)).toEqual(prefill);
  });

  test("without a lens it carries the questions only; with nothing it asks for nothing", () => {
    expect(read(trackerPrefillHref({ queries: ["best crm"], brand: undefined, competitors: [] }))).toEqual({
      queries: ["best crm"],
      brand: undefined,
      competitors: [],
    });
    expect(trackerPrefillHref({ queries: [], brand: undefined, competitors: [] })).toBe("/trackers/new");
    expect(read("/trackers/new")).toBeNull();
  });
});

describe("readTrackerPrefill", () => {
  test("blank, too long and invisible values are dropped, and repeats kept once (case aside)", () => {
    const long = "q".repeat(QUERY_MAX_LENGTH + 1);
    const params = new URLSearchParams();
    for (const query of ["  best crm ", "", "   ", long, "BEST CRM", "crm\u200b"]) params.append("query", query);
    params.append("brand", "b".repeat(81));
    params.append("competitor", "HubSpot");
    params.append("competitor", "hubspot");
    const prefill = readTrackerPrefill(params);
    expect(prefill?.queries).toEqual(["best crm"]);
    expect(prefill?.brand).toBeUndefined();
    expect(prefill?.competitors).toEqual(["HubSpot"]);
  });

  test("no more questions and competitors than a tracker holds; the brand is not its own competitor", () => {
    const params = new URLSearchParams();
    for (let i = 0; i < MAX_TRACKER_QUERIES + 5; i++) params.append("query", `question ${i}`);
    params.append("brand", "Pipedrive");
    params.append("brand", "Ignored");
    params.append("competitor", "pipedrive");
    for (let i = 0; i < MAX_TRACKER_COMPETITORS + 5; i++) params.append("competitor", `Rival ${i}`);
    const prefill = readTrackerPrefill(params)!;
    expect(prefill.queries).toHaveLength(MAX_TRACKER_QUERIES);
    expect(prefill.brand).toBe("Pipedrive");
    expect(prefill.competitors).toHaveLength(MAX_TRACKER_COMPETITORS);
    expect(prefill.competitors).not.toContain("pipedrive");
  });
});

describe("prefilledDraft", () => {
  const lens = {
    brand: { name: "Pipedrive", aliases: ["Pipe Drive"], domains: ["pipedrive.com"] },
    competitors: [{ name: "HubSpot", aliases: [], domains: ["hubspot.com"] }],
  };
  const base = newDraft(lens, ["openai"], "UTC");

  test("the search's questions, the tracker named after the first; a lens name the profile knows keeps its aliases and domains", () => {
    const question = "which crm is best for a small sales team that sells to enterprise customers in europe and the us";
    const draft = prefilledDraft(base, { queries: [question], brand: "pipedrive", competitors: ["HubSpot", "Zoho CRM"] }, lens);
    expect(draft.queries).toBe(question);
    expect(draft.name).toBe(question.slice(0, TRACKER_NAME_MAX_LENGTH).trim());
    expect([draft.brandName, draft.brandAliases, draft.brandDomains]).toEqual(["Pipedrive", "Pipe Drive", "pipedrive.com"]);
    expect(draft.competitors.map(({ name, domains }) => [name, domains])).toEqual([
      ["HubSpot", "hubspot.com"],
      ["Zoho CRM", ""],
    ]);
    // The rest stays the new form's: every week, its providers.
    expect(draft.schedule).toEqual(base.schedule);
    expect(draft.providers).toEqual(["openai"]);
  });

  test("without a lens in the link the profile's brand and competitors stay", () => {
    const draft = prefilledDraft(base, { queries: ["best crm"], brand: undefined, competitors: [] }, lens);
    expect(draft.brandName).toBe("Pipedrive");
    expect(draft.competitors.map((row) => row.name)).toEqual(["HubSpot"]);
  });
});
