/**
 * Test cards, as Stripe documents them (docs.stripe.com/testing): `checkCard` validates what a
 * PaymentMethod is made from (number, expiry, CVC → Stripe's card_error codes), and `chargeDecline`
 * says whether a charge on a saved card is declined. Any other number that passes the Luhn check
 * is charged successfully, like 4242 4242 4242 4242.
 */
import { createHash } from "node:crypto";
import type { CardErrorSpec } from "./errors.ts";

export type CardInput = { number: string | undefined; expMonth: string | undefined; expYear: string | undefined; cvc: string | undefined };

export type Card = {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
  /** Full number, kept to decide how later charges go (the simulator is not a vault). */
  number: string;
};

const DECLINED = "Your card was declined.";

/** Cards that are declined on every charge. */
const DECLINES: Record<string, CardErrorSpec> = {
  "4000000000000002": { code: "card_declined", decline_code: "generic_decline", message: DECLINED },
  "4000000000009995": { code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." },
  "4000000000009987": { code: "card_declined", decline_code: "lost_card", message: DECLINED },
  "4000000000009979": { code: "card_declined", decline_code: "stolen_card", message: DECLINED },
  "4000000000000069": { code: "expired_card", decline_code: "expired_card", message: "Your card has expired." },
  "4000000000000127": { code: "incorrect_cvc", decline_code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  "4000000000000119": {
    code: "processing_error",
    decline_code: "processing_error",
    message: "An error occurred while processing your card. Try again in a little bit.",
  },
};

/** Attaches and pays the first charge, then every later (off-session) charge is declined. */
const FAILS_LATER = "4000000000000341";

export const DEFAULT_TEST_CARD: CardInput = { number: "4242424242424242", expMonth: "12", expYear: "2034", cvc: "123" };

/** The card, or the card_error Stripe answers for it (`now` in unix seconds decides expiry). */
export function checkCard(input: CardInput, now: number): { card: Card } | { error: CardErrorSpec } {
  const number = (input.number ?? "").replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { error: { code: "incorrect_number", message: "Your card number is incorrect.", param: "number" } };
  const month = /^\d{1,2}$/.test(input.expMonth ?? "") ? Number(input.expMonth) : NaN;
  if (!(month >= 1 && month <= 12)) return { error: { code: "invalid_expiry_month", message: "Your card's expiration month is invalid.", param: "exp_month" } };
  const yearText = input.expYear ?? "";
  if (!/^(\d{2}|\d{4})$/.test(yearText))
    return { error: { code: "invalid_expiry_year", message: "Your card's expiration year is invalid.", param: "exp_year" } };
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const today = new Date(now * 1000);
  if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)) {
    return { error: { code: "expired_card", message: "Your card has expired.", param: "exp_year" } };
  }
  const brand = brandOf(number);
  const cvc = input.cvc ?? "";
  if (cvc === "") return { error: { code: "incomplete_cvc", message: "Your card's security code is incomplete.", param: "cvc" } };
  if (!/^\d+$/.test(cvc) || cvc.length !== (brand === "amex" ? 4 : 3))
    return { error: { code: "invalid_cvc", message: "Your card's security code is invalid.", param: "cvc" } };
  const fingerprint = createHash("sha256").update(number).digest("base64url").slice(0, 16);
  return { card: { brand, last4: number.slice(-4), expMonth: month, expYear: year, fingerprint, number } };
}

/** The decline for a charge on this card, if it is declined: `renewal` is a later, off-session charge. */
export function chargeDecline(card: Card, charge: "first" | "renewal"): CardErrorSpec | undefined {
  const decline = DECLINES[card.number];
  if (decline) return decline;
  if (card.number === FAILS_LATER && charge === "renewal") return DECLINES["4000000000000002"];
  return undefined;
}

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^(6011|65|64[4-9])/.test(number)) return "discover";
  if (/^(36|38|30[0-5])/.test(number)) return "diners";
  if (/^35/.test(number)) return "jcb";
  if (/^62/.test(number)) return "unionpay";
  return "unknown";
}
