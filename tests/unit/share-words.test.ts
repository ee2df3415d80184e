import { describe, expect, test } from "bun:test";
import { EXPIRY_CHOICES, expiryChoiceLabel, expiryText, shareKindLabel } from "#web/lib/shares.ts";

// How the profile's list and the Share dialog word a link's lifetime and kind.
describe("a share link in words", () => {
  const now = new Date("2026-11-26T12:00:00.000Z");

  test("a link without an expiry never expires; one with a future date says when, in UTC", () => {
    expect(expiryText({ expired: false }, now)).toBe("Never expires");
    expect(expiryText({ expired: false, expiresAt: "2026-12-03T12:00:00.000Z" }, now)).toBe("Expires Dec 3, 2026, 12:00 UTC");
  });

  test("the server's word wins, and a date that has passed since the list was read is expired too", () => {
    expect(expiryText({ expired: true, expiresAt: "2026-12-03T12:00:00.000Z" }, now)).toBe("Expired");
    expect(expiryText({ expired: false, expiresAt: "2026-11-26T11:59:59.000Z" }, now)).toBe("Expired");
    expect(expiryText({ expired: false, expiresAt: "2026-11-26T12:00:00.000Z" }, now)).toBe("Expired");
  });

  test("a tracker's link says which report it shows; the others say what they are", () => {
    expect(shareKindLabel({ kind: "tracker", frozen: true })).toBe("Tracker · frozen snapshot");
    expect(shareKindLabel({ kind: "tracker", frozen: false })).toBe("Tracker · live report");
    expect(shareKindLabel({ kind: "search", frozen: false })).toBe("Search");
    expect(shareKindLabel({ kind: "compare", frozen: false })).toBe("Comparison");
  });

  test("the dialog offers never, 7, 30 and 90 days", () => {
    expect(EXPIRY_CHOICES.map(expiryChoiceLabel)).toEqual(["Never", "7 days", "30 days", "90 days"]);
  });
});
