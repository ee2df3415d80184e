import { describe, expect, test } from "bun:test";
import { safeReturnPath, signInFrom } from "#web/lib/return-path.ts";

// Signing in returns to the page that asked for it, and never leaves the site.
describe("safeReturnPath", () => {
  test("a path of this site comes back whole", () => {
    expect(safeReturnPath("/user/subscription")).toBe("/user/subscription");
    expect(safeReturnPath("/search/abc?tab=links#top")).toBe("/search/abc?tab=links#top");
  });

  test("another origin, in any spelling, is refused", () => {
    for (const next of [
      "//evil.com",
      "https://evil.com",
      "http://evil.com/user",
      "/\\evil.com",
      "\\\\evil.com",
      "/\t/evil.com",
      " //evil.com",
      "javascript:alert(1)",
      "evil.com",
      "",
      null,
      undefined,
    ]) {
      expect(safeReturnPath(next)).toBeNull();
    }
  });

  test("the sign-in page itself is no place to return to", () => {
    expect(safeReturnPath("/auth?next=/auth")).toBeNull();
  });
});

describe("signInFrom", () => {
  test("names the page to return to, beside the query the sign-in page already has", () => {
    expect(signInFrom("/auth", "/user/subscription")).toBe("/auth?next=%2Fuser%2Fsubscription");
    expect(signInFrom("/auth?from=upgrade", "/checkout")).toBe("/auth?from=upgrade&next=%2Fcheckout");
    expect(signInFrom("/auth", "/")).toBe("/auth");
    expect(signInFrom("/auth", "//evil.com")).toBe("/auth");
  });
});
