import { describe, expect, test } from "bun:test";
import { formatDate } from "#src/core/dates.ts";
import { formatPrice } from "#web/lib/format.ts";

// Spec §2 (subscription): the amount as money is written, the currency upper-cased and a slash
// interval ("$19.00 USD/month", as the spec writes it).
describe("formatPrice", () => {
  test("writes Stripe's smallest units as the locale writes money, then the currency upper-cased and the interval", () => {
    expect(formatPrice(1900, "usd", "month")).toBe("$19.00 USD/month");
    expect(formatPrice(0, "usd", "month")).toBe("$0.00 USD/month");
    expect(formatPrice(950, "eur", "year")).toBe("€9.50 EUR/year");
    expect(formatPrice(1900, "jpy", "month")).toBe("¥1,900 JPY/month");
    expect(formatPrice(123456, "usd")).toBe("$1,234.56 USD");
  });

  test("no amount is 'Not available'; a currency Intl does not know keeps the plain form", () => {
    expect(formatPrice(null, "usd", "month")).toBe("Not available");
    expect(formatPrice(1900, null, "month")).toBe("Not available");
    expect(formatPrice(1900, "u$d", "month")).toBe("19.00 U$D/month");
  });
});

// One way to write a date, the page's and the server's messages alike.
describe("formatDate (src/core/dates.ts)", () => {
  test("a date alone reads as on the subscription page", () => {
    expect(formatDate("2026-12-26T10:00:00Z", { time: false })).toBe("Dec 26, 2026");
    expect(formatDate(new Date("2026-12-26T23:59:00Z"), { time: false })).toBe("Dec 26, 2026");
  });
});
