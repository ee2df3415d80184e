import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, Crown } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { AuthMarketing } from "#web/components/auth/auth-marketing.tsx";
import { useCameFromUpgrade } from "#web/hooks/use-came-from-upgrade.ts";
import { LoginForm } from "#web/components/auth/login-form.tsx";
import { RegisterForm, type RegisterOutcome } from "#web/components/auth/register-form.tsx";
import { useSessionCache } from "#web/hooks/use-session.ts";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs.tsx";
import { safeReturnPath } from "#web/lib/return-path.ts";
import type { PrefetchContext } from "#web/page.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, Card, CardContent, CardDescription, CardHeader, queries, toast } from "#web/shared-chunk.ts";

/** The user decides what the server renders: a signed-in visitor gets no form, only the way home. */
export async function prefetch({ queryClient, api: serverApi }: PrefetchContext) {
  await queryClient.ensureQueryData(queries.user(serverApi));
}

type Tab = "login" | "register";

/** Spec §2 /auth: Login and Register tabs beside the product's three selling points. */
export default function AuthPage() {
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const { data: user } = useQuery(queries.user(api));
  // Signed in on arrival: no form, only the way home. Signing in here keeps the (busy) form up
  // until the dashboard replaces it.
  const [arrivedSignedIn] = useState(() => Boolean(user));
  const session = useSessionCache();
  const fromUpgrade = useCameFromUpgrade();
  // Arriving to upgrade means creating an account, most likely: open on Register unless they chose
  // (a page that offers "Create an account" sends `?tab=register`).
  const [tab, setTab] = useState<Tab>(fromUpgrade || params.get("tab") === "register" ? "register" : "login");
  const tabChosen = useRef(false);
  const [loginUsername, setLoginUsername] = useState("");
  const marketingId = useId();

  // Spec §2: a signed-in user is sent home; also how a successful login or registration leaves.
  // Someone who came to upgrade goes on to pay (spec §4: the upgrade continues after sign-in);
  // someone a page sent here goes back to it (`?next=`, a path of this site only).
  const back = safeReturnPath(params.get("next"));
  useEffect(() => {
    if (user) navigate(fromUpgrade && !arrivedSignedIn ? "/checkout" : (!arrivedSignedIn && back) || "/", { replace: true });
  }, [user, navigate, fromUpgrade, arrivedSignedIn, back]);

  useEffect(() => {
    if (fromUpgrade && !tabChosen.current) setTab("register");
  }, [fromUpgrade]);

  function registered(outcome: RegisterOutcome) {
    if (outcome.signedIn) {
      toast({ title: "Account created", description: `Welcome, ${outcome.user.username}! You're signed in.` });
      session.signedIn(outcome.user);
      return;
    }
    // Spec §4: registered, but the automatic sign-in did not take.
    toast({ title: "Account created", description: "Please log in with your new account." });
    setLoginUsername(outcome.username);
    setTab("login");
  }

  if (user && arrivedSignedIn) {
    return (
      <main className="container mx-auto w-full max-w-6xl flex-1 px-4 py-8" aria-busy="true">
        <title>Log In / Sign Up · AI Search Comparison</title>
        <p className="text-muted-foreground">
          You're already signed in.{" "}
          <Link href="/" className="font-medium text-foreground underline underline-offset-4">
            Go to the dashboard
          </Link>
        </p>
      </main>
    );
  }

  return (
    <main className="container mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:py-8">
      <title>Log In / Sign Up · AI Search Comparison</title>
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4">
        <Link href="/">
          <ArrowLeft aria-hidden="true" />
          Back to Home
        </Link>
      </Button>
      {fromUpgrade ? (
        <Alert role="status" className="mb-6 border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          <Crown aria-hidden="true" />
          <AlertTitle className="font-semibold">Create an Account to Upgrade to Pro</AlertTitle>
          <AlertDescription className="text-amber-900 dark:text-amber-100">
            Register or log in first. Pro gives you unlimited searches, multiple iterations and query variants.
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid items-start gap-10 lg:grid-cols-2 lg:gap-16">
        {/* Form first for keyboards and small screens; the selling points sit on the left when there is room. */}
        <Card className="w-full max-w-md justify-self-center lg:order-2 lg:justify-self-end">
          <CardHeader>
            <h1 className="text-2xl font-bold tracking-tight">Log In / Sign Up</h1>
            <CardDescription>Log in to see your search history, or create a free account.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs
              value={tab}
              onValueChange={(next) => {
                tabChosen.current = true;
                setTab(next as Tab);
              }}
            >
              <TabsList className="mb-4 w-full">
                <TabsTrigger value="login" {...tabIds("login", tab)}>
                  Login
                </TabsTrigger>
                <TabsTrigger value="register" {...tabIds("register", tab)}>
                  Register
                </TabsTrigger>
              </TabsList>
              <TabsContent value="login" {...panelIds("login")}>
                <LoginForm key={loginUsername} initialUsername={loginUsername} onSignedIn={(signedIn) => session.signedIn(signedIn)} />
              </TabsContent>
              <TabsContent value="register" {...panelIds("register")}>
                <RegisterForm onRegistered={registered} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
        <div className="lg:order-1 lg:pt-6">
          <AuthMarketing headingId={marketingId} />
        </div>
      </div>
    </main>
  );
}

/*
 * Fixed ids for the tabs instead of Radix's useId ones: React's ids differ between the server
 * render and the hydrating browser here (the server renders the whole document around the app),
 * so an id written after hydration (aria-controls on switching tabs) would name a panel id the
 * server wrote differently. Only the selected tab points at its panel: the other is not rendered.
 */
function tabIds(value: Tab, selected: Tab) {
  return { id: `auth-tab-${value}`, "aria-controls": value === selected ? `auth-panel-${value}` : undefined };
}

function panelIds(value: Tab) {
  return { id: `auth-panel-${value}`, "aria-labelledby": `auth-tab-${value}` };
}
