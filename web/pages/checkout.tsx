import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Loader2, Lock, RotateCcw } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { SERVER_FAULTS } from "#src/contract/error-codes.ts";
import { RequireUser } from "#web/components/auth/require-user.tsx";
import { PaymentForm } from "#web/components/billing/payment-form.tsx";
import { TestModeNotice } from "#web/components/billing/test-mode-notice.tsx";
import { clearCheckout, pendingCheckout, rememberCheckout, type PendingCheckout } from "#web/lib/checkout.ts";
import { formatPrice } from "#web/lib/format.ts";
import { api, ApiError, Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle, queries, toast, messages } from "#web/shared-chunk.ts";

/**
 * Spec §2 /checkout: signed in only; a visitor sent here is on the way to paying, so sign-in shows
 * the upgrade banner, and the upgrade flow brings them back here after it (no `?next=` needed).
 */
export default function CheckoutPage() {
  return (
    <RequireUser to="/auth?from=upgrade" returnHere={false}>
      <Checkout />
    </RequireUser>
  );
}

type Setup = { state: "loading" } | ({ state: "ready" } & PendingCheckout) | { state: "failed"; message: string } | { state: "returning" };

/** Spec §2/§4: the loading card, the error cards, or the payment form; polls Pro status every second. */
function Checkout() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { data: plan, error: planError } = useQuery(queries.plan(api));
  const { data: pro } = useQuery({ ...queries.proStatus(api), refetchInterval: 1000 });
  const [setup, setSetup] = useState<Setup>({ state: "loading" });
  const [loadError, setLoadError] = useState(false);
  const wasFree = useRef<boolean | undefined>(undefined);

  // Once Pro (the webhook or the verification stored it): a success toast and home. A return from
  // Stripe is announced by the return verification; someone already Pro on arrival is not congratulated.
  useEffect(() => {
    if (!pro) return;
    wasFree.current ??= !pro.isPro;
    if (!pro.isPro || !wasFree.current) return;
    clearCheckout();
    if (setup.state !== "returning") toast(messages.proActive);
    navigate("/", { replace: true });
  }, [pro, setup.state, navigate]);

  useEffect(() => {
    if (new URLSearchParams(window.location.search).get("checkout_success") === "true") return setSetup({ state: "returning" });
    const pending = pendingCheckout();
    if (pending) return setSetup({ state: "ready", ...pending });
    // Arrived without a payment to confirm (a link, the limit toast): start one, as the upgrade button does.
    api
      .createSubscription()
      .then((result) => {
        if (result.status === "active") {
          toast(messages.alreadySubscribed);
          navigate("/user/subscription", { replace: true });
        } else if (result.clientSecret && result.subscriptionId) {
          const checkout = { clientSecret: result.clientSecret, subscriptionId: result.subscriptionId };
          rememberCheckout(checkout);
          setSetup({ state: "ready", ...checkout });
        } else {
          setSetup({ state: "failed", message: "There was a problem setting up your payment. Please try again." });
        }
      })
      .catch((error: unknown) =>
        setSetup({
          state: "failed",
          message:
            error instanceof ApiError && error.code && !SERVER_FAULTS.has(error.code) && error.serverMessage
              ? error.serverMessage
              : "An error occurred while setting up your subscription. Please try again.",
        }),
      );
  }, [navigate]);

  const paid = useCallback(async () => {
    if (setup.state !== "ready") return;
    try {
      // Stripe's answer in the browser is not proof: the server asks Stripe before anyone is Pro.
      await api.verifySubscription(setup.subscriptionId);
    } finally {
      await queryClient.invalidateQueries({ queryKey: queries.proStatus(api).queryKey });
    }
  }, [setup, queryClient]);
  const failedToLoad = useCallback(() => setLoadError(true), []);

  if (planError || setup.state === "failed") {
    return (
      <CheckoutCard title="Payment Setup Failed" description="Could not initialize payment. Please try again later." action={<ReturnHome />}>
        <p className="text-sm text-muted-foreground">
          {setup.state === "failed" ? setup.message : "An error occurred while setting up your subscription. Please try again."}
        </p>
      </CheckoutCard>
    );
  }
  if (plan?.mode === "off") {
    return (
      <CheckoutCard title="Payment Setup Failed" description="Could not initialize payment. Please try again later." action={<ReturnHome />}>
        <p className="text-sm text-muted-foreground">Pro subscriptions are not offered on this server.</p>
      </CheckoutCard>
    );
  }
  if (loadError) {
    return (
      <CheckoutCard title="Error loading checkout" description="The payment form could not be loaded." action={<TryAgain />}>
        <p className="text-sm text-muted-foreground">Check your connection, then try again.</p>
      </CheckoutCard>
    );
  }
  if (!plan || setup.state === "loading" || setup.state === "returning") {
    return (
      <CheckoutCard title="Upgrade to Pro" description={setup.state === "returning" ? "Confirming your payment with Stripe…" : "Preparing your checkout…"}>
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          {setup.state === "returning" ? "This takes a moment." : "Loading the payment form…"}
        </p>
      </CheckoutCard>
    );
  }
  const price = plan.price ? formatPrice(plan.price.amount, plan.price.currency, plan.price.interval) : null;
  return (
    <CheckoutCard
      title="Upgrade to Pro"
      description={
        price
          ? `${plan.price?.productName ?? "Pro"} · ${price}`
          : "Unlimited searches, up to 100 iterations each, with frequency analysis, query variants and the brand lens."
      }
      action={
        <Button asChild variant="ghost" size="sm">
          <Link href="/">
            <ArrowLeft aria-hidden="true" />
            Back to Dashboard
          </Link>
        </Button>
      }
    >
      {plan.testMode ? <TestModeNotice hint="pay with 4242 4242 4242 4242" /> : null}
      <PaymentForm plan={plan} clientSecret={setup.clientSecret} subscriptionId={setup.subscriptionId} onPaid={paid} onLoadError={failedToLoad} />
      <ul className="space-y-1 text-xs text-muted-foreground">
        <li className="flex items-center gap-1.5">
          <Lock className="size-3" aria-hidden="true" />
          Secure payment by Stripe: your card details never reach our servers.
        </li>
        <li>Cancel anytime from your account settings; Pro stays until the end of the period you paid for.</li>
      </ul>
    </CheckoutCard>
  );
}

function CheckoutCard({ title, description, action, children }: { title: string; description: string; action?: ReactNode; children: ReactNode }) {
  return (
    <main className="container mx-auto flex w-full max-w-6xl flex-1 items-start justify-center px-4 py-8">
      <title>Checkout · AI Search Comparison</title>
      <Card className="w-full max-w-lg">
        <CardHeader>
          <CardTitle>
            <h1 className="text-xl">{title}</h1>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">{children}</CardContent>
        {action ? <CardFooter>{action}</CardFooter> : null}
      </Card>
    </main>
  );
}

function ReturnHome() {
  return (
    <Button asChild>
      <Link href="/">Return to Home</Link>
    </Button>
  );
}

function TryAgain() {
  return (
    <Button onClick={() => window.location.reload()}>
      <RotateCcw aria-hidden="true" />
      Try Again
    </Button>
  );
}
