import { Search } from "lucide-react";
import { Link, useLocation } from "wouter";
import { Button } from "#web/components/ui/button.tsx";
import { rememberUpgradeIntent } from "#web/lib/upgrade-flag.ts";

/** Spec §2 header: title, upgrade button, user menu. */
export function Header() {
  return (
    <header className="border-b bg-background">
      <div className="container mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4">
        <Link href="/" className="flex min-w-0 items-center gap-2 font-semibold tracking-tight" aria-label="AI Search Comparison, home">
          <Search className="size-5 shrink-0 text-primary" aria-hidden="true" />
          {/* Below 440 px the buttons need the room; the link keeps its name for screen readers. */}
          <span className="hidden truncate text-base min-[440px]:inline sm:text-lg">AI Search Comparison</span>
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          <UpgradeButton />
          <UserMenu />
        </nav>
      </div>
    </header>
  );
}

/** Anonymous visitors go to sign-in first, with the upgrade intent remembered. */
function UpgradeButton() {
  const [, navigate] = useLocation();
  return (
    <Button
      size="sm"
      onClick={() => {
        rememberUpgradeIntent();
        navigate("/auth?from=upgrade");
      }}
    >
      Upgrade to Pro
    </Button>
  );
}

function UserMenu() {
  return (
    <Button asChild size="sm" variant="outline">
      <Link href="/auth">Log In / Sign Up</Link>
    </Button>
  );
}
