import { describe, expect, test } from "bun:test";
import { formatDate } from "#src/core/dates.ts";
import { formatPrice } from "#web/lib/format.ts";

// Issue 21 defect 8: prices as money is written ("$19.00/month", not "19.00 USD/month").
describe("formatPrice", () => {
  test("writes Stripe's smallest units as the locale writes money, with the interval", () => {
    expect(formatPrice(1900, "usd", "month")).toBe("$19.00/month");
    expect(formatPrice(0, "usd", "month")).toBe("$0.00/month");
    expect(formatPrice(950, "eur", "year")).toBe("€9.50/year");
    expect(formatPrice(1900, "jpy", "month")).toBe("¥1,900/month");
    expect(formatPrice(123456, "usd")).toBe("$1,234.56");
  });

  test("no amount is 'Not available'; a currency Intl does not know keeps the plain form", () => {
    expect(formatPrice(null, "usd", "month")).toBe("Not available");
    expect(formatPrice(1900, null, "month")).toBe("Not available");
    expect(formatPrice(1900, "u$d", "month")).toBe("19.00 U$D/month");
  });
});

// Issue 21 defect 8: one way to write a date, the page's and the server's messages alike.
describe("formatDate (src/core/dates.ts)", () => {
  test("a date alone reads as on the subscription page", () => {
    expect(formatDate("2026-12-26T10:00:00Z", { time: false })).toBe("Dec 26, 2026");
    expect(formatDate(new Date("2026-12-26T23:59:00Z"), { time: false })).toBe("Dec 26, 2026");
  });
});
