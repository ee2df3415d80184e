import { useQuery } from "@tanstack/react-query";
import { Check, Crown } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { TestModeNotice } from "#web/components/billing/test-mode-notice.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { formatPrice } from "#web/lib/format.ts";
import {
  api,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  FREE_DAILY_SEARCHES,
  queries,
  Skeleton,
  useStartUpgrade,
} from "#web/shared-chunk.ts";

/** The price is read from Stripe on the server, so the page arrives with it. */
export async function prefetch({ queryClient, api: serverApi }: PrefetchContext) {
  await queryClient.prefetchQuery(queries.plan(serverApi));
}

const FREE = [`${FREE_DAILY_SEARCHES} searches a day`, "1 iteration per search", "Search history, JSON and CSV export"];
// What Pro gives today; each new Pro tool is added here when it ships.
const PRO = [
  "Unlimited searches",
  "1, 5, 10, 25, 50 or 100 iterations per search",
  "Frequency analysis: how often each product, company and source comes back, with 95% intervals, and how stable the models' top picks are from run to run",
  "Query variants: rephrasings written by a model, run side by side and compared, with significance tests",
  "Brand lens: how often each model mentions your brand, its position and share of voice against your competitors",
  "Trackers: your questions asked daily or weekly, and how often each model mentions your brand, run after run",
];

/** /upgrade: where Pro features send free users. What Pro gives, what it costs, and the way to it. */
export default function PlansPage() {
  const { data: plan, isPending } = useQuery(queries.plan(api));
  const { data: pro } = useQuery(queries.proStatus(api));
  const upgrade = useStartUpgrade();
  const price = plan?.price ? formatPrice(plan.price.amount, plan.price.currency, plan.price.interval) : null;
  return (
    <main className="container mx-auto w-full max-w-4xl flex-1 space-y-6 px-4 py-8">
      <title>Upgrade to Pro · AI Search Comparison</title>
      <section className="space-y-2 text-center">
        <h1 className="text-3xl font-bold tracking-tight">Upgrade to Pro</h1>
        <p className="text-muted-foreground">See how often each model names your market's products, not just once.</p>
      </section>
      {plan?.testMode ? <TestModeNotice className="mx-auto max-w-xl" /> : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Plan title="Free" price={plan?.price ? formatPrice(0, plan.price.currency, plan.price.interval) : "Free"} features={FREE} />
        <Plan title={plan?.price?.productName ?? "Pro"} price={isPending ? null : (price ?? "—")} features={PRO} highlighted>
          {pro?.isPro ? (
            <div className="space-y-2">
              <p className="flex items-center gap-2 text-sm font-medium">
                <Crown className="size-4 text-amber-600" aria-hidden="true" />
                You're a Pro member.
              </p>
              <Button asChild variant="outline" className="w-full">
                <Link href="/user/subscription">Manage Subscription</Link>
              </Button>
            </div>
          ) : plan?.mode === "off" || !upgrade.offered ? (
            <p className="text-sm text-muted-foreground">Pro subscriptions are not offered on this server.</p>
          ) : (
            <Button className="w-full" onClick={() => void upgrade.start()}>
              <Crown aria-hidden="true" />
              Upgrade to Pro
            </Button>
          )}
        </Plan>
      </div>
    </main>
  );
}

function Plan({
  title,
  price,
  features,
  highlighted = false,
  children,
}: {
  title: string;
  price: string | null;
  features: string[];
  highlighted?: boolean;
  children?: ReactNode;
}) {
  return (
    <Card className={highlighted ? "border-primary" : undefined}>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{title}</h2>
        </CardTitle>
        <CardDescription className="text-2xl font-semibold text-foreground">{price === null ? <Skeleton className="h-8 w-32" /> : price}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-2 text-sm">
          {features.map((feature) => (
            <li key={feature} className="flex gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
              {feature}
            </li>
          ))}
        </ul>
      </CardContent>
      {children ? <CardFooter>{children}</CardFooter> : null}
    </Card>
  );
}
