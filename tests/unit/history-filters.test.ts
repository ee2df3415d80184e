import { describe, expect, test } from "bun:test";
import { historyRange } from "#src/contract/history.ts";
import { EMPTY_HISTORY_FORM, historyFilters, isFiltered, searchName } from "#web/lib/history.ts";

describe("the history's filters", () => {
  test("the form's blank fields are left out; a day is the person's own whole day, as timestamps", () => {
    expect(historyFilters(EMPTY_HISTORY_FORM)).toEqual({});
    expect(isFiltered({ ...EMPTY_HISTORY_FORM, q: "   " })).toBe(false);
    const filters = historyFilters({ q: " crm ", provider: "gemini", iterations: "25", from: "2026-11-02", to: "2026-11-03", hideTrackers: false });
    expect(filters).toEqual({
      q: "crm",
      provider: "gemini",
      iterations: 25,
      from: new Date(2026, 10, 2, 0, 0, 0, 0).toISOString(),
      to: new Date(2026, 10, 3, 23, 59, 59, 999).toISOString(),
    });
    expect(historyFilters({ ...EMPTY_HISTORY_FORM, from: "not a day" })).toEqual({});
  });

  test("'Hide tracker runs' asks the API to leave out the searches trackers made, and counts as a filter", () => {
    expect(historyFilters({ ...EMPTY_HISTORY_FORM, hideTrackers: true })).toEqual({ trackers: "hide" });
    expect(isFiltered({ ...EMPTY_HISTORY_FORM, hideTrackers: true })).toBe(true);
  });

  test("the API's range: a day is its UTC day, both ends included; a timestamp is that moment", () => {
    expect(historyRange({ from: "2026-11-02", to: "2026-11-03" })).toEqual({ from: new Date("2026-11-02T00:00:00Z"), until: new Date("2026-11-04T00:00:00Z") });
    expect(historyRange({ to: "2026-11-03T10:00:00Z" })).toEqual({ until: new Date("2026-11-03T10:00:00.001Z") });
    expect(historyRange({})).toEqual({});
  });

  test("a search is called by its title once renamed, else by its query", () => {
    expect(searchName({ query: "best crm" })).toBe("best crm");
    expect(searchName({ query: "best crm", title: "Agency CRMs" })).toBe("Agency CRMs");
  });
});
