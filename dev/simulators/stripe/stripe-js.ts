/**
 * A stand-in for Stripe.js (served at /js/v3.js): `window.Stripe(publishableKey)` with what
 * @stripe/stripe-js and @stripe/react-stripe-js use. `elements({ clientSecret })` makes an Elements
 * group (create, getElement, update, submit, fetchUpdates); its payment element renders a plain,
 * labelled card form (Card number, Expiration date, Security code) with Stripe.js's validation
 * messages, and emits ready / change / focus / blur. `confirmPayment` posts the card to
 * `<base>/v1/payment_intents/:id/confirm` with the publishable key and the client secret, where
 * <base> is this script's own URL minus /js/v3.js (an app that serves the script under a prefix
 * of its own and proxies the API there keeps the browser on its origin). `Stripe.version` is
 * "endive", the release @stripe/stripe-js 10 expects. Plain ES2017, no build step.
 */
export const STRIPE_JS_PATH = "/js/v3.js";

export const stripeJsSource = String.raw`(function () {
  "use strict";
  if (window.Stripe && window.Stripe.simulated) return;
  var script = document.currentScript;
  if (!script) {
    var candidates = document.querySelectorAll('script[src*="/js/v3.js"]');
    script = candidates[candidates.length - 1];
  }
  var BASE = script && script.src ? script.src.replace(/\/js\/v3\.js(?:[?#].*)?$/, "") : "";
  var counter = 0;

  var MESSAGES = {
    incomplete_number: "Your card number is incomplete.",
    invalid_number: "Your card number is invalid.",
    incomplete_expiry: "Your card's expiration date is incomplete.",
    invalid_expiry_month: "Your card's expiration date is invalid.",
    invalid_expiry_year_past: "Your card's expiration year is in the past.",
    invalid_expiry_month_past: "Your card's expiration date is in the past.",
    incomplete_cvc: "Your card's security code is incomplete."
  };

  function assign(target, source) {
    for (var key in source) if (Object.prototype.hasOwnProperty.call(source, key)) target[key] = source[key];
    return target;
  }

  /** Nested params as Stripe's bracket form: card[number]=4242… */
  function encode(params, prefix, out) {
    out = out || [];
    for (var key in params) {
      var value = params[key];
      if (value === undefined || value === null) continue;
      var name = prefix ? prefix + "[" + key + "]" : key;
      if (typeof value === "object") encode(value, name, out);
      else out.push(encodeURIComponent(name) + "=" + encodeURIComponent(String(value)));
    }
    return out.join("&");
  }

  function digits(text) {
    return String(text || "").replace(/\D/g, "");
  }

  function luhn(number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var d = Number(number.charAt(number.length - 1 - i));
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }

  function brand(number) {
    if (/^3[47]/.test(number)) return "amex";
    if (/^(36|38|30[0-5])/.test(number)) return "diners";
    return "other";
  }

  function numberLength(number) {
    var b = brand(number);
    return b === "amex" ? 15 : b === "diners" ? 14 : 16;
  }

  function formatNumber(value) {
    var d = digits(value).slice(0, 19);
    var groups = brand(d) === "amex" ? [4, 6, 5] : [4, 4, 4, 4, 3];
    var parts = [];
    for (var i = 0, at = 0; i < groups.length && at < d.length; at += groups[i], i++) parts.push(d.slice(at, at + groups[i]));
    return parts.join(" ");
  }

  function formatExpiry(value) {
    var d = digits(value).slice(0, 4);
    if (d.length === 1 && Number(d) > 1) d = "0" + d;
    return d.length > 2 ? d.slice(0, 2) + " / " + d.slice(2) : d;
  }

  var INPUT_STYLE = "display:block;width:100%;box-sizing:border-box;height:36px;margin:0;padding:6px 12px;border:1px solid #d4d4d8;border-radius:6px;background:transparent;color:inherit;font:inherit;font-size:14px;outline:none;box-shadow:none";
  var LABEL_STYLE = "display:block;margin:0 0 6px;font-size:14px;font-weight:500;line-height:1.4";
  var ERROR_STYLE = "margin:4px 0 0;min-height:0;color:#dc2626;font-size:13px;line-height:1.4";

  function field(id, name, label, attributes) {
    return '<div style="margin:0 0 12px;flex:1;min-width:0">' +
      '<label for="' + id + '-' + name + '" style="' + LABEL_STYLE + '">' + label + "</label>" +
      '<input id="' + id + '-' + name + '" name="' + name + '" type="text" ' + attributes + ' aria-describedby="' + id + '-' + name + '-error" aria-invalid="false" style="' + INPUT_STYLE + '">' +
      '<p id="' + id + '-' + name + '-error" aria-live="polite" style="' + ERROR_STYLE + '"></p>' +
      "</div>";
  }

  function createPaymentElement(group, type, options) {
    var id = "stripe-simulator-" + (++counter);
    var handlers = {};
    var root = null;
    var inputs = null;
    var destroyed = false;
    var ready = false;

    function emit(event, payload) {
      var list = (handlers[event] || []).slice();
      for (var i = 0; i < list.length; i++) list[i](payload);
    }

    function values() {
      return { number: digits(inputs.number.value), expiry: digits(inputs.expiry.value), cvc: digits(inputs.cvc.value) };
    }

    /** The first problem of each field, as Stripe.js's validation_error codes. */
    function problems() {
      var v = values();
      var out = {};
      if (v.number.length < numberLength(v.number)) out.number = "incomplete_number";
      else if (!luhn(v.number)) out.number = "invalid_number";
      if (v.expiry.length < 4) out.expiry = "incomplete_expiry";
      else {
        var month = Number(v.expiry.slice(0, 2));
        var year = 2000 + Number(v.expiry.slice(2, 4));
        var today = new Date();
        if (month < 1 || month > 12) out.expiry = "invalid_expiry_month";
        else if (year < today.getFullYear()) out.expiry = "invalid_expiry_year_past";
        else if (year === today.getFullYear() && month < today.getMonth() + 1) out.expiry = "invalid_expiry_month_past";
      }
      if (v.cvc.length < (brand(v.number) === "amex" ? 4 : 3)) out.cvc = "incomplete_cvc";
      return out;
    }

    function show(name, code) {
      var input = inputs[name];
      var message = document.getElementById(input.id + "-error");
      message.textContent = code ? MESSAGES[code] : "";
      input.setAttribute("aria-invalid", code ? "true" : "false");
      input.style.borderColor = code ? "#dc2626" : "#d4d4d8";
    }

    function changeEvent() {
      var v = values();
      var found = problems();
      return {
        elementType: "payment",
        complete: !found.number && !found.expiry && !found.cvc,
        empty: !v.number && !v.expiry && !v.cvc,
        collapsed: false,
        value: { type: "card" }
      };
    }

    function render(node) {
      var wrapper = document.createElement("div");
      wrapper.setAttribute("data-stripe-simulator", "payment-element");
      wrapper.style.cssText = "font-size:14px;line-height:1.4;color:inherit";
      wrapper.innerHTML =
        field(id, "number", "Card number", 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" maxlength="23"') +
        '<div style="display:flex;gap:12px">' +
        field(id, "expiry", "Expiration date", 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" maxlength="7"') +
        field(id, "cvc", "Security code", 'inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" maxlength="4"') +
        "</div>";
      node.appendChild(wrapper);
      inputs = {
        number: wrapper.querySelector('[name="number"]'),
        expiry: wrapper.querySelector('[name="expiry"]'),
        cvc: wrapper.querySelector('[name="cvc"]')
      };
      var format = { number: formatNumber, expiry: formatExpiry, cvc: function (v) { return digits(v).slice(0, 4); } };
      Object.keys(inputs).forEach(function (name) {
        var input = inputs[name];
        input.addEventListener("input", function () {
          input.value = format[name](input.value);
          if (input.getAttribute("aria-invalid") === "true" && !problems()[name]) show(name, null);
          emit("change", changeEvent());
        });
        input.addEventListener("focus", function (event) {
          input.style.borderColor = "#a1a1aa";
          input.style.boxShadow = "0 0 0 3px rgba(161,161,170,0.35)";
          if (!event.relatedTarget || !wrapper.contains(event.relatedTarget)) emit("focus", { elementType: "payment" });
        });
        input.addEventListener("blur", function (event) {
          input.style.boxShadow = "none";
          show(name, input.value ? problems()[name] : null);
          if (!event.relatedTarget || !wrapper.contains(event.relatedTarget)) emit("blur", { elementType: "payment" });
        });
        input.addEventListener("keydown", function (event) {
          if (event.key === "Escape") emit("escape", { elementType: "payment" });
        });
      });
      applyOptions();
      return wrapper;
    }

    function applyOptions() {
      if (!inputs) return;
      for (var name in inputs) inputs[name].disabled = !!options.readOnly;
    }

    var element = {
      mount: function (target) {
        if (destroyed) throw new Error("This Element has already been destroyed. Please create a new one.");
        var node = typeof target === "string" ? document.querySelector(target) : target;
        if (!node) throw new Error("The selector you specified (" + target + ") applies to no DOM elements that are currently on the page.");
        if (root) element.unmount();
        root = render(node);
        setTimeout(function () {
          if (!root) return;
          ready = true;
          emit("loaderstart", { elementType: "payment" });
          emit("ready", { elementType: "payment" });
        }, 0);
      },
      unmount: function () {
        if (root && root.parentNode) root.parentNode.removeChild(root);
        root = null;
        inputs = null;
        ready = false;
      },
      destroy: function () {
        element.unmount();
        destroyed = true;
        handlers = {};
        if (group._elements[type] === element) delete group._elements[type];
      },
      on: function (event, handler) {
        (handlers[event] = handlers[event] || []).push(handler);
        // Attached after the element became ready (React attaches in an effect): tell it now.
        if (event === "ready" && ready) setTimeout(function () { handler({ elementType: "payment" }); }, 0);
        return element;
      },
      once: function (event, handler) {
        function wrapped(payload) { element.off(event, wrapped); handler(payload); }
        return element.on(event, wrapped);
      },
      off: function (event, handler) {
        if (!handler) delete handlers[event];
        else handlers[event] = (handlers[event] || []).filter(function (h) { return h !== handler; });
        return element;
      },
      update: function (next) {
        assign(options, next || {});
        applyOptions();
      },
      focus: function () { if (inputs) inputs.number.focus(); },
      blur: function () {
        var active = document.activeElement;
        if (root && active && root.contains(active)) active.blur();
      },
      clear: function () {
        if (!inputs) return;
        for (var name in inputs) { inputs[name].value = ""; show(name, null); }
        emit("change", changeEvent());
      },
      collapse: function () {},
      /** Shows every field's problem; the first one as a validation_error, or null. */
      _validate: function () {
        if (!inputs) return { type: "validation_error", code: "element_not_mounted", message: "The payment element is not mounted." };
        var found = problems();
        var first = null;
        ["number", "expiry", "cvc"].forEach(function (name) {
          show(name, found[name]);
          if (found[name] && !first) first = { type: "validation_error", code: found[name], message: MESSAGES[found[name]] };
        });
        return first;
      },
      _card: function () {
        var v = values();
        return { number: v.number, exp_month: v.expiry.slice(0, 2), exp_year: v.expiry.slice(2, 4), cvc: v.cvc };
      }
    };
    return element;
  }

  function createElements(options) {
    var group = { _options: assign({}, options || {}), _elements: {} };
    group.create = function (type, elementOptions) {
      if (type !== "payment" && type !== "card") throw new Error("The Stripe simulator only has the payment element, not \"" + type + "\".");
      if (group._elements[type]) throw new Error("Can only create one Element of type " + type + ".");
      var element = createPaymentElement(group, type, assign({}, elementOptions || {}));
      group._elements[type] = element;
      return element;
    };
    group.getElement = function (type) { return group._elements[type] || null; };
    group.update = function (next) { assign(group._options, next || {}); };
    group.fetchUpdates = function () { return Promise.resolve({}); };
    group.submit = function () {
      var element = group._elements.payment || group._elements.card;
      var error = element ? element._validate() : { type: "validation_error", code: "element_not_mounted", message: "No payment element was created." };
      return Promise.resolve(error ? { error: error } : {});
    };
    group.on = function () { return group; };
    group.off = function () { return group; };
    return group;
  }

  function withParams(url, params) {
    var target = new URL(url, window.location.href);
    for (var key in params) target.searchParams.set(key, params[key]);
    return target.href;
  }

  function Stripe(publishableKey) {
    if (typeof publishableKey !== "string" || !publishableKey) throw new Error("Please call Stripe() with your publishable key. You used an empty string.");

    function api(method, path, params) {
      var query = encode(params);
      var init = { method: method, headers: { authorization: "Bearer " + publishableKey, "content-type": "application/x-www-form-urlencoded" } };
      if (method !== "GET") init.body = query;
      return fetch(BASE + path + (method === "GET" && query ? "?" + query : ""), init).then(
        function (response) {
          return response.json().then(function (json) { return { ok: response.ok, json: json }; });
        },
        function (error) {
          return { ok: false, json: { error: { type: "api_connection_error", message: "Could not reach the Stripe simulator: " + error.message } } };
        }
      );
    }

    function intentId(clientSecret) {
      return String(clientSecret).split("_secret_")[0];
    }

    function unsupported(name) {
      return function () {
        return Promise.resolve({ error: { type: "invalid_request_error", message: "stripe." + name + "() is not simulated; use the payment element with stripe.confirmPayment()." } });
      };
    }

    return {
      elements: function (options) { return createElements(options); },
      confirmPayment: function (params) {
        params = params || {};
        var elements = params.elements;
        var confirmParams = params.confirmParams || {};
        var clientSecret = params.clientSecret || (elements && elements._options.clientSecret);
        if (!elements) return Promise.reject(new Error("stripe.confirmPayment(): the 'elements' argument is required."));
        if (!clientSecret) return Promise.reject(new Error("stripe.confirmPayment(): a clientSecret is required (in elements() or here)."));
        if (params.redirect !== "if_required" && !confirmParams.return_url) {
          return Promise.reject(new Error("stripe.confirmPayment(): the confirmParams.return_url argument is required unless passing redirect: 'if_required'"));
        }
        var element = elements._elements.payment || elements._elements.card;
        var invalid = element ? element._validate() : { type: "validation_error", code: "element_not_mounted", message: "No payment element was created." };
        if (invalid) return Promise.resolve({ error: invalid });
        var methodData = assign({ type: "card", card: element._card() }, confirmParams.payment_method_data || {});
        return api("POST", "/v1/payment_intents/" + intentId(clientSecret) + "/confirm", {
          client_secret: clientSecret,
          payment_method_data: methodData,
          return_url: confirmParams.return_url
        }).then(function (result) {
          if (!result.ok) return { error: result.json.error };
          var intent = result.json;
          if (params.redirect === "if_required") return { paymentIntent: intent };
          window.location.assign(withParams(confirmParams.return_url, {
            payment_intent: intent.id,
            payment_intent_client_secret: clientSecret,
            redirect_status: intent.status === "succeeded" ? "succeeded" : intent.status
          }));
          return new Promise(function () {});
        });
      },
      retrievePaymentIntent: function (clientSecret) {
        if (typeof clientSecret !== "string" || clientSecret.indexOf("_secret_") < 0) return Promise.reject(new Error("stripe.retrievePaymentIntent(): expected a PaymentIntent client secret."));
        return api("GET", "/v1/payment_intents/" + intentId(clientSecret), { client_secret: clientSecret }).then(function (result) {
          return result.ok ? { paymentIntent: result.json } : { error: result.json.error };
        });
      },
      confirmCardPayment: unsupported("confirmCardPayment"),
      createToken: unsupported("createToken"),
      createPaymentMethod: unsupported("createPaymentMethod"),
      confirmSetup: unsupported("confirmSetup"),
      handleNextAction: unsupported("handleNextAction"),
      _registerWrapper: function () {},
      registerAppInfo: function () {}
    };
  }

  Stripe.version = "endive";
  Stripe.simulated = true;
  window.Stripe = Stripe;
})();
`;
