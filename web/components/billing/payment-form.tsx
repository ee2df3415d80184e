import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { CreditCard, Loader2 } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import type { BillingPlan } from "#src/contract/billing.ts";
import { forgetCompleted, rememberCompleted } from "#web/lib/checkout.ts";
import { formatPrice } from "#web/lib/format.ts";
import { Alert, AlertDescription, AlertTitle, Button } from "#web/shared-chunk.ts";

type PaymentFormProps = {
  plan: BillingPlan;
  clientSecret: string;
  subscriptionId: string;
  /** The payment went through without leaving the page. */
  onPaid: () => void;
  /** Stripe.js or the payment form could not be loaded. */
  onLoadError: () => void;
};

/**
 * Stripe's Payment Element for the subscription's first payment. The same code runs against
 * Stripe (js.stripe.com) and the simulator, whose Stripe.js stand-in is loaded first when the plan
 * names one: `loadStripe` then uses the `window.Stripe` already on the page.
 */
export function PaymentForm({ plan, clientSecret, subscriptionId, onPaid, onLoadError }: PaymentFormProps) {
  const stripe = useMemo(() => stripeFor(plan).catch((error: unknown) => (onLoadError(), Promise.reject(error))), [plan, onLoadError]);
  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance: { theme: "stripe" } }}>
      <PayForm plan={plan} subscriptionId={subscriptionId} onPaid={onPaid} onLoadError={onLoadError} />
    </Elements>
  );
}

export default PaymentForm;

function PayForm({ plan, subscriptionId, onPaid, onLoadError }: Omit<PaymentFormProps, "clientSecret">) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const price = plan.price ? formatPrice(plan.price.amount, plan.price.currency, plan.price.interval) : null;

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setDeclined(null);
    // If Stripe must send the browser away (3-D Secure, a bank page), the return verifies this.
    rememberCompleted(subscriptionId);
    const returnUrl = new URL("/checkout", window.location.origin);
    returnUrl.searchParams.set("checkout_success", "true");
    returnUrl.searchParams.set("subscription_id", subscriptionId);
    const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl.toString() }, redirect: "if_required" });
    setBusy(false);
    if (error) {
      forgetCompleted();
      // A decline is for the person to fix (another card): Stripe's own words, in the form. A
      // field's problem (validation_error) the Payment Element already shows under that field.
      if (error.type !== "validation_error") setDeclined(error.message ?? "There was a problem setting up your payment. Please try again.");
      return;
    }
    onPaid();
  }

  return (
    <form onSubmit={pay} className="space-y-4" aria-label="Payment">
      <PaymentElement onReady={() => setReady(true)} onLoadError={onLoadError} />
      {declined ? (
        <Alert variant="destructive" role="alert">
          <AlertTitle>Payment failed</AlertTitle>
          <AlertDescription>{declined}</AlertDescription>
        </Alert>
      ) : null}
      <Button type="submit" className="w-full" disabled={!stripe || !elements || !ready || busy}>
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CreditCard aria-hidden="true" />}
        {busy ? "Processing..." : price ? `Subscribe for ${price}` : "Subscribe"}
      </Button>
    </form>
  );
}

/** Stripe.js for the plan: the simulator's stand-in when the plan names one, else js.stripe.com. */
async function stripeFor(plan: BillingPlan): Promise<Stripe | null> {
  if (!plan.publishableKey) throw new Error("payments are not configured");
  if (plan.stripeJsUrl && !("Stripe" in window)) await loadScript(plan.stripeJsUrl);
  return loadStripe(plan.publishableKey);
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}
