/**
 * A stand-in for Stripe.js, run in the browser (bundled to one script by ./bundle.ts, served at
 * /js/v3.js): `window.Stripe(publishableKey)` with what @stripe/stripe-js and
 * @stripe/react-stripe-js use. `elements({ clientSecret })` makes an Elements group (create,
 * getElement, update, submit, fetchUpdates); its payment element renders a plain, labelled card
 * form (Card number, Expiration date, Security code) with Stripe.js's validation messages, and
 * emits ready / change / focus / blur. `confirmPayment` posts the card to
 * `<base>/v1/payment_intents/:id/confirm` with the publishable key and the client secret, where
 * <base> is this script's own URL minus /js/v3.js (an app that serves the script under a prefix
 * of its own and proxies the API there keeps the browser on its origin). `Stripe.version` is
 * "endive", the release @stripe/stripe-js 10 expects.
 */

import type { StripeConstructor } from "@stripe/stripe-js";

type FieldName = "number" | "expiry" | "cvc";
type ProblemCode = keyof typeof MESSAGES;
type StripeError = { type: string; code?: string; message?: string };
type Handler = (payload: unknown) => void;
type Options = Record<string, unknown>;
type Card = { number: string; exp_month: string; exp_year: string; cvc: string };
type Params = { [key: string]: string | number | boolean | null | undefined | Params };

type PaymentElement = {
  mount(target: string | Element): void;
  unmount(): void;
  destroy(): void;
  on(event: string, handler: Handler): PaymentElement;
  once(event: string, handler: Handler): PaymentElement;
  off(event: string, handler?: Handler): PaymentElement;
  update(next?: Options): void;
  focus(): void;
  blur(): void;
  clear(): void;
  collapse(): void;
  /** Shows every field's problem; the first one as a validation_error, or null. */
  _validate(): StripeError | null;
  _card(): Card;
};

type ElementsGroup = {
  _options: Options;
  _elements: Record<string, PaymentElement | undefined>;
  create(type: string, elementOptions?: Options): PaymentElement;
  getElement(type: string): PaymentElement | null;
  update(next?: Options): void;
  fetchUpdates(): Promise<object>;
  submit(): Promise<{ error?: StripeError }>;
  on(): ElementsGroup;
  off(): ElementsGroup;
};

type ConfirmPaymentParams = {
  elements?: ElementsGroup;
  clientSecret?: string;
  redirect?: string;
  confirmParams?: { return_url?: string; payment_method_data?: Params };
};

/** What the simulator's API answers: a PaymentIntent, or an error. */
type ApiAnswer = { error?: StripeError; id?: string; status?: string };

const MESSAGES = {
  incomplete_number: "Your card number is incomplete.",
  invalid_number: "Your card number is invalid.",
  incomplete_expiry: "Your card's expiration date is incomplete.",
  invalid_expiry_month: "Your card's expiration date is invalid.",
  invalid_expiry_year_past: "Your card's expiration year is in the past.",
  invalid_expiry_month_past: "Your card's expiration date is in the past.",
  incomplete_cvc: "Your card's security code is incomplete.",
};

const FIELDS: FieldName[] = ["number", "expiry", "cvc"];
const INPUT_STYLE =
  "display:block;width:100%;box-sizing:border-box;height:36px;margin:0;padding:6px 12px;border:1px solid #d4d4d8;border-radius:6px;background:transparent;color:inherit;font:inherit;font-size:14px;outline:none;box-shadow:none";
const LABEL_STYLE = "display:block;margin:0 0 6px;font-size:14px;font-weight:500;line-height:1.4";
const ERROR_STYLE = "margin:4px 0 0;min-height:0;color:#dc2626;font-size:13px;line-height:1.4";

// Loaded twice (a second <script>, or loadStripe after it): the first one stays.
if (!(window.Stripe as { simulated?: boolean } | undefined)?.simulated) install();

function install(): void {
  let script = document.currentScript as HTMLScriptElement | null;
  if (!script) {
    const candidates = document.querySelectorAll<HTMLScriptElement>('script[src*="/js/v3.js"]');
    script = candidates[candidates.length - 1] ?? null;
  }
  const base = script?.src ? script.src.replace(/\/js\/v3\.js(?:[?#].*)?$/, "") : "";
  let counter = 0;

  function createPaymentElement(group: ElementsGroup, type: string, options: Options): PaymentElement {
    const id = "stripe-simulator-" + ++counter;
    let handlers: Record<string, Handler[]> = {};
    let root: HTMLElement | null = null;
    let inputs: Record<FieldName, HTMLInputElement> | null = null;
    let destroyed = false;
    let ready = false;

    function emit(event: string, payload: unknown): void {
      for (const handler of (handlers[event] ?? []).slice()) handler(payload);
    }

    function values(): Record<FieldName, string> {
      const fields = inputs!;
      return { number: digits(fields.number.value), expiry: digits(fields.expiry.value), cvc: digits(fields.cvc.value) };
    }

    /** The first problem of each field, as Stripe.js's validation_error codes. */
    function problems(): Partial<Record<FieldName, ProblemCode>> {
      const v = values();
      const out: Partial<Record<FieldName, ProblemCode>> = {};
      if (v.number.length < numberLength(v.number)) out.number = "incomplete_number";
      else if (!luhn(v.number)) out.number = "invalid_number";
      if (v.expiry.length < 4) out.expiry = "incomplete_expiry";
      else {
        const month = Number(v.expiry.slice(0, 2));
        const year = 2000 + Number(v.expiry.slice(2, 4));
        const today = new Date();
        if (month < 1 || month > 12) out.expiry = "invalid_expiry_month";
        else if (year < today.getFullYear()) out.expiry = "invalid_expiry_year_past";
        else if (year === today.getFullYear() && month < today.getMonth() + 1) out.expiry = "invalid_expiry_month_past";
      }
      if (v.cvc.length < (brand(v.number) === "amex" ? 4 : 3)) out.cvc = "incomplete_cvc";
      return out;
    }

    function show(name: FieldName, code: ProblemCode | null | undefined): void {
      const input = inputs![name];
      const message = document.getElementById(input.id + "-error")!;
      message.textContent = code ? MESSAGES[code] : "";
      input.setAttribute("aria-invalid", code ? "true" : "false");
      input.style.borderColor = code ? "#dc2626" : "#d4d4d8";
    }

    function changeEvent() {
      const v = values();
      const found = problems();
      return {
        elementType: "payment",
        complete: !found.number && !found.expiry && !found.cvc,
        empty: !v.number && !v.expiry && !v.cvc,
        collapsed: false,
        value: { type: "card" },
      };
    }

    function render(node: Element): HTMLElement {
      const wrapper = document.createElement("div");
      wrapper.setAttribute("data-stripe-simulator", "payment-element");
      wrapper.style.cssText = "font-size:14px;line-height:1.4;color:inherit";
      wrapper.innerHTML =
        field(id, "number", "Card number", 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" maxlength="23"') +
        '<div style="display:flex;gap:12px">' +
        field(id, "expiry", "Expiration date", 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" maxlength="7"') +
        field(id, "cvc", "Security code", 'inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" maxlength="4"') +
        "</div>";
      node.appendChild(wrapper);
      const fields = {
        number: wrapper.querySelector<HTMLInputElement>('[name="number"]')!,
        expiry: wrapper.querySelector<HTMLInputElement>('[name="expiry"]')!,
        cvc: wrapper.querySelector<HTMLInputElement>('[name="cvc"]')!,
      };
      inputs = fields;
      const format: Record<FieldName, (value: string) => string> = { number: formatNumber, expiry: formatExpiry, cvc: (value) => digits(value).slice(0, 4) };
      for (const name of FIELDS) {
        const input = fields[name];
        input.addEventListener("input", () => {
          input.value = format[name](input.value);
          if (input.getAttribute("aria-invalid") === "true" && !problems()[name]) show(name, null);
          emit("change", changeEvent());
        });
        input.addEventListener("focus", (event) => {
          input.style.borderColor = "#a1a1aa";
          input.style.boxShadow = "0 0 0 3px rgba(161,161,170,0.35)";
          if (!event.relatedTarget || !wrapper.contains(event.relatedTarget as Node)) emit("focus", { elementType: "payment" });
        });
        input.addEventListener("blur", (event) => {
          input.style.boxShadow = "none";
          show(name, input.value ? problems()[name] : null);
          if (!event.relatedTarget || !wrapper.contains(event.relatedTarget as Node)) emit("blur", { elementType: "payment" });
        });
        input.addEventListener("keydown", (event) => {
          if (event.key === "Escape") emit("escape", { elementType: "payment" });
        });
      }
      applyOptions();
      return wrapper;
    }

    function applyOptions(): void {
      if (!inputs) return;
      for (const name of FIELDS) inputs[name].disabled = !!options.readOnly;
    }

    const element: PaymentElement = {
      mount(target) {
        if (destroyed) throw new Error("This Element has already been destroyed. Please create a new one.");
        const node = typeof target === "string" ? document.querySelector(target) : target;
        if (!node) throw new Error("The selector you specified (" + String(target) + ") applies to no DOM elements that are currently on the page.");
        if (root) element.unmount();
        root = render(node);
        setTimeout(() => {
          if (!root) return;
          ready = true;
          emit("loaderstart", { elementType: "payment" });
          emit("ready", { elementType: "payment" });
        }, 0);
      },
      unmount() {
        root?.parentNode?.removeChild(root);
        root = null;
        inputs = null;
        ready = false;
      },
      destroy() {
        element.unmount();
        destroyed = true;
        handlers = {};
        if (group._elements[type] === element) delete group._elements[type];
      },
      on(event, handler) {
        (handlers[event] ??= []).push(handler);
        // Attached after the element became ready (React attaches in an effect): tell it now.
        if (event === "ready" && ready) setTimeout(() => handler({ elementType: "payment" }), 0);
        return element;
      },
      once(event, handler) {
        const wrapped: Handler = (payload) => {
          element.off(event, wrapped);
          handler(payload);
        };
        return element.on(event, wrapped);
      },
      off(event, handler) {
        if (!handler) delete handlers[event];
        else handlers[event] = (handlers[event] ?? []).filter((h) => h !== handler);
        return element;
      },
      update(next) {
        Object.assign(options, next ?? {});
        applyOptions();
      },
      focus() {
        inputs?.number.focus();
      },
      blur() {
        const active = document.activeElement;
        if (root && active && root.contains(active)) (active as HTMLElement).blur();
      },
      clear() {
        if (!inputs) return;
        for (const name of FIELDS) {
          inputs[name].value = "";
          show(name, null);
        }
        emit("change", changeEvent());
      },
      collapse() {},
      _validate() {
        if (!inputs) return { type: "validation_error", code: "element_not_mounted", message: "The payment element is not mounted." };
        const found = problems();
        let first: StripeError | null = null;
        for (const name of FIELDS) {
          const code = found[name];
          show(name, code);
          if (code && !first) first = { type: "validation_error", code, message: MESSAGES[code] };
        }
        return first;
      },
      _card() {
        const v = values();
        return { number: v.number, exp_month: v.expiry.slice(0, 2), exp_year: v.expiry.slice(2, 4), cvc: v.cvc };
      },
    };
    return element;
  }

  function createElements(options?: Options): ElementsGroup {
    const group: ElementsGroup = {
      _options: { ...options },
      _elements: {},
      create(type, elementOptions) {
        if (type !== "payment" && type !== "card") throw new Error('The Stripe simulator only has the payment element, not "' + type + '".');
        if (group._elements[type]) throw new Error("Can only create one Element of type " + type + ".");
        const element = createPaymentElement(group, type, { ...elementOptions });
        group._elements[type] = element;
        return element;
      },
      getElement: (type) => group._elements[type] ?? null,
      update(next) {
        Object.assign(group._options, next ?? {});
      },
      fetchUpdates: () => Promise.resolve({}),
      submit() {
        const error = validate(group);
        return Promise.resolve(error ? { error } : {});
      },
      on: () => group,
      off: () => group,
    };
    return group;
  }

  function Stripe(publishableKey: unknown) {
    if (typeof publishableKey !== "string" || !publishableKey) throw new Error("Please call Stripe() with your publishable key. You used an empty string.");

    function api(method: "GET" | "POST", path: string, params: Params): Promise<{ ok: boolean; json: ApiAnswer }> {
      const query = encode(params);
      const init: RequestInit = { method, headers: { authorization: "Bearer " + publishableKey, "content-type": "application/x-www-form-urlencoded" } };
      if (method !== "GET") init.body = query;
      return fetch(base + path + (method === "GET" && query ? "?" + query : ""), init).then(
        (response) => response.json().then((json: ApiAnswer) => ({ ok: response.ok, json })),
        (error: Error) => ({ ok: false, json: { error: { type: "api_connection_error", message: "Could not reach the Stripe simulator: " + error.message } } }),
      );
    }

    const unsupported = (name: string) => () =>
      Promise.resolve({
        error: { type: "invalid_request_error", message: "stripe." + name + "() is not simulated; use the payment element with stripe.confirmPayment()." },
      });

    return {
      elements: (options?: Options) => createElements(options),
      confirmPayment(params?: ConfirmPaymentParams) {
        params = params ?? {};
        const elements = params.elements;
        const confirmParams = params.confirmParams ?? {};
        const clientSecret = params.clientSecret || (elements?._options.clientSecret as string | undefined);
        if (!elements) return Promise.reject(new Error("stripe.confirmPayment(): the 'elements' argument is required."));
        if (!clientSecret) return Promise.reject(new Error("stripe.confirmPayment(): a clientSecret is required (in elements() or here)."));
        if (params.redirect !== "if_required" && !confirmParams.return_url) {
          return Promise.reject(new Error("stripe.confirmPayment(): the confirmParams.return_url argument is required unless passing redirect: 'if_required'"));
        }
        const invalid = validate(elements);
        if (invalid) return Promise.resolve({ error: invalid });
        const element = (elements._elements.payment ?? elements._elements.card)!;
        const methodData = { type: "card", card: element._card(), ...confirmParams.payment_method_data };
        const redirect = params.redirect;
        return api("POST", "/v1/payment_intents/" + intentId(clientSecret) + "/confirm", {
          client_secret: clientSecret,
          payment_method_data: methodData,
          return_url: confirmParams.return_url,
        }).then((result) => {
          if (!result.ok) return { error: result.json.error };
          const intent = result.json;
          if (redirect === "if_required") return { paymentIntent: intent };
          window.location.assign(
            withParams(confirmParams.return_url!, {
              payment_intent: String(intent.id),
              payment_intent_client_secret: clientSecret,
              redirect_status: String(intent.status),
            }),
          );
          return new Promise(() => {});
        });
      },
      retrievePaymentIntent(clientSecret: unknown) {
        if (typeof clientSecret !== "string" || clientSecret.indexOf("_secret_") < 0)
          return Promise.reject(new Error("stripe.retrievePaymentIntent(): expected a PaymentIntent client secret."));
        return api("GET", "/v1/payment_intents/" + intentId(clientSecret), { client_secret: clientSecret }).then((result) =>
          result.ok ? { paymentIntent: result.json } : { error: result.json.error },
        );
      },
      confirmCardPayment: unsupported("confirmCardPayment"),
      createToken: unsupported("createToken"),
      createPaymentMethod: unsupported("createPaymentMethod"),
      confirmSetup: unsupported("confirmSetup"),
      handleNextAction: unsupported("handleNextAction"),
      _registerWrapper() {},
      registerAppInfo() {},
    };
  }

  Stripe.version = "endive";
  Stripe.simulated = true;
  // It does what the app and @stripe/stripe-js use of Stripe.js, not all of it.
  window.Stripe = Stripe as unknown as StripeConstructor;
}

/** The group's payment element's first problem, or why there is none to check. */
function validate(group: ElementsGroup): StripeError | null {
  const element = group._elements.payment ?? group._elements.card;
  return element ? element._validate() : { type: "validation_error", code: "element_not_mounted", message: "No payment element was created." };
}

/** Nested params as Stripe's bracket form: card[number]=4242… */
function encode(params: Params, prefix?: string, out: string[] = []): string {
  for (const key in params) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    const name = prefix ? prefix + "[" + key + "]" : key;
    if (typeof value === "object") encode(value, name, out);
    else out.push(encodeURIComponent(name) + "=" + encodeURIComponent(String(value)));
  }
  return out.join("&");
}

function digits(text: string | null | undefined): string {
  return String(text || "").replace(/\D/g, "");
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number.charAt(number.length - 1 - i));
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function brand(number: string): "amex" | "diners" | "other" {
  if (/^3[47]/.test(number)) return "amex";
  if (/^(36|38|30[0-5])/.test(number)) return "diners";
  return "other";
}

function numberLength(number: string): number {
  const b = brand(number);
  return b === "amex" ? 15 : b === "diners" ? 14 : 16;
}

function formatNumber(value: string): string {
  const d = digits(value).slice(0, 19);
  const groups = brand(d) === "amex" ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  for (let i = 0, at = 0; i < groups.length && at < d.length; at += groups[i]!, i++) parts.push(d.slice(at, at + groups[i]!));
  return parts.join(" ");
}

function formatExpiry(value: string): string {
  let d = digits(value).slice(0, 4);
  if (d.length === 1 && Number(d) > 1) d = "0" + d;
  return d.length > 2 ? d.slice(0, 2) + " / " + d.slice(2) : d;
}

function field(id: string, name: FieldName, label: string, attributes: string): string {
  return (
    '<div style="margin:0 0 12px;flex:1;min-width:0">' +
    '<label for="' +
    id +
    "-" +
    name +
    '" style="' +
    LABEL_STYLE +
    '">' +
    label +
    "</label>" +
    '<input id="' +
    id +
    "-" +
    name +
    '" name="' +
    name +
    '" type="text" ' +
    attributes +
    ' aria-describedby="' +
    id +
    "-" +
    name +
    '-error" aria-invalid="false" style="' +
    INPUT_STYLE +
    '">' +
    '<p id="' +
    id +
    "-" +
    name +
    '-error" aria-live="polite" style="' +
    ERROR_STYLE +
    '"></p>' +
    "</div>"
  );
}

function intentId(clientSecret: string): string {
  return String(clientSecret).split("_secret_")[0]!;
}

function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url, window.location.href);
  for (const key in params) target.searchParams.set(key, params[key]!);
  return target.href;
}
