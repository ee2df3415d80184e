import { useMutation, useQuery } from "@tanstack/react-query";
import { CalendarClock, CircleX, Crown, ExternalLink, RotateCcw } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link } from "wouter";
import type { SubscriptionDetails } from "#src/contract/billing.ts";
import { RequireUser } from "#web/components/auth/require-user.tsx";
import { TestModeNotice } from "#web/components/billing/test-mode-notice.tsx";
import { useSubscriptionChange } from "#web/hooks/use-subscription-change.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "#web/components/ui/dialog.tsx";
import { formatDate } from "#src/core/dates.ts";
import { formatPrice } from "#web/lib/format.ts";
import { cn } from "#web/lib/utils.ts";
import {
  Alert,
  AlertDescription,
  AlertTitle,
  api,
  ApiError,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  queries,
  Skeleton,
  toast,
  useStartUpgrade,
} from "#web/shared-chunk.ts";

/** Spec §2 /user/subscription: signed in only (others go to /auth). */
export default function SubscriptionPage() {
  return (
    <RequireUser>
      <main className="container mx-auto w-full max-w-3xl flex-1 space-y-6 px-4 py-8">
        <title>Manage Subscription · AI Search Comparison</title>
        <h1 className="text-2xl font-bold tracking-tight">Manage Subscription</h1>
        <Subscription />
      </main>
    </RequireUser>
  );
}

function Subscription() {
  const { data, isPending, error } = useQuery(queries.subscription(api));
  const { data: plan } = useQuery(queries.plan(api));
  if (isPending) return <Skeleton className="h-64 w-full" aria-label="Loading your subscription" role="status" />;
  if (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load your subscription</AlertTitle>
        <AlertDescription>{error instanceof ApiError ? (error.serverMessage ?? error.message) : "There was an error processing your request"}</AlertDescription>
      </Alert>
    );
  }
  const details = data.subscriptionDetails;
  return (
    <>
      {plan?.testMode ? <TestModeNotice /> : null}
      {details && (data.isPro || details.status === "canceled") ? <SubscriptionCard details={details} portal={plan?.mode === "live"} /> : <NoSubscription />}
    </>
  );
}

/** Spec §4 status display: active green, canceled yellow, any other status as it is. */
const STATUS_TONE: Record<string, string> = {
  active: "border-emerald-600 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  canceled: "border-amber-500 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
};

function SubscriptionCard({ details, portal }: { details: SubscriptionDetails; portal: boolean }) {
  const scheduled = details.cancelAtPeriodEnd && details.status !== "canceled";
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Crown className="size-5 text-amber-600" aria-hidden="true" />
          <h2>Pro Subscription</h2>
          <Badge variant="outline" className={cn("capitalize", STATUS_TONE[details.status])}>
            {details.status}
          </Badge>
        </CardTitle>
        <CardDescription>Unlimited searches, up to 100 iterations each, with frequency analysis, query variants and the brand lens.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Field label="Subscription ID">
            <span className="font-mono text-xs break-all">{details.id}</span>
          </Field>
          <Field label="Status">{details.status}</Field>
          <Field label="Price">{formatPrice(details.planAmount, details.planCurrency, details.planInterval)}</Field>
          <Field label={details.status === "canceled" || scheduled ? "Access until" : "Renews on"}>
            {formatDate(details.currentPeriodEnd, { time: false })}
          </Field>
        </dl>
        {scheduled ? (
          <Alert role="note">
            <CalendarClock aria-hidden="true" />
            <AlertTitle>Scheduled to cancel</AlertTitle>
            <AlertDescription>
              {`Your subscription ends on ${formatDate(details.cancelAt ?? details.currentPeriodEnd, { time: false })}; you asked to cancel on ${formatDate(details.canceledAt, { time: false })}. Pro stays until then.`}
            </AlertDescription>
          </Alert>
        ) : null}
        {details.status === "canceled" ? (
          <Alert role="note">
            <CircleX aria-hidden="true" />
            <AlertTitle>Subscription canceled</AlertTitle>
            <AlertDescription>{`Your Pro access ended on ${formatDate(details.currentPeriodEnd, { time: false })}.`}</AlertDescription>
          </Alert>
        ) : null}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {details.status === "active" && !scheduled ? <CancelButton subscriptionId={details.id} /> : null}
        {scheduled ? <ResumeButton subscriptionId={details.id} /> : null}
        {portal ? <PortalButton /> : null}
      </CardFooter>
    </Card>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

/** Spec §2: 'Cancel Subscription' asks first: 'Yes, Cancel Subscription' or 'Keep Subscription'. */
function CancelButton({ subscriptionId }: { subscriptionId: string }) {
  const [open, setOpen] = useState(false);
  const change = useSubscriptionChange("cancel");
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">Cancel Subscription</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel your Pro subscription?</DialogTitle>
          <DialogDescription>You keep Pro until the end of the billing period you paid for; after that the free limits apply again.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep Subscription</Button>
          </DialogClose>
          <Button variant="destructive" disabled={change.isPending} onClick={() => change.mutate(subscriptionId, { onSettled: () => setOpen(false) })}>
            Yes, Cancel Subscription
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Beyond the spec: a scheduled cancel can be taken back while the period lasts. */
function ResumeButton({ subscriptionId }: { subscriptionId: string }) {
  const change = useSubscriptionChange("resume");
  return (
    <Button disabled={change.isPending} onClick={() => change.mutate(subscriptionId)}>
      <RotateCcw aria-hidden="true" />
      Resume Subscription
    </Button>
  );
}

/** Live mode: Stripe's own portal for invoices and the payment method. */
function PortalButton() {
  const open = useMutation({
    mutationFn: () => api.billingPortal(window.location.href),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) =>
      toast({
        variant: "destructive",
        title: "Billing portal unavailable",
        description: error instanceof ApiError ? (error.serverMessage ?? error.message) : "There was an error processing your request",
      }),
  });
  return (
    <Button variant="ghost" disabled={open.isPending} onClick={() => open.mutate()}>
      <ExternalLink aria-hidden="true" />
      Invoices and payment method
    </Button>
  );
}

/** Spec §2: not Pro: 'No Active Subscription' and 'Upgrade to Pro' to /checkout. */
function NoSubscription() {
  const upgrade = useStartUpgrade();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>No Active Subscription</h2>
        </CardTitle>
        <CardDescription>You're on the free plan: 5 searches a day, one iteration each.</CardDescription>
      </CardHeader>
      <CardFooter className="flex flex-wrap gap-2">
        {upgrade.offered ? (
          <Button asChild>
            <Link href="/checkout">
              <Crown aria-hidden="true" />
              Upgrade to Pro
            </Link>
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">Pro subscriptions are not offered on this server.</p>
        )}
        <Button asChild variant="ghost">
          <Link href="/upgrade">What Pro includes</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
