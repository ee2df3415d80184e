import { useQuery } from "@tanstack/react-query";
import { Crown } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Link } from "wouter";
import { Alert, AlertDescription, AlertTitle, api, Card, CardContent, CardDescription, CardHeader, CardTitle, queries } from "#web/shared-chunk.ts";

/** One of the profile's settings cards (brand lens, CLI access): a region named by its heading, `id` its anchor. */
export function SettingsCard({ id, title, description, children }: { id: string; title: string; description: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card id={id} aria-labelledby={headingId} role="region" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>
          <h2 id={headingId} className="text-xl">
            {title}
          </h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">{children}</CardContent>
    </Card>
  );
}

/** For signed-in free users only: what of this setting needs Pro, with the way to see what Pro gives. */
export function ProNote({ title, children }: { title: string; children: ReactNode }) {
  const { data: pro } = useQuery(queries.proStatus(api));
  if (!pro || pro.isPro) return null;
  return (
    <Alert role="note">
      <Crown aria-hidden="true" />
      <AlertTitle className="line-clamp-none">{title}</AlertTitle>
      <AlertDescription>
        <p>
          {children}{" "}
          <Link href="/upgrade" className="font-medium text-foreground underline underline-offset-2">
            What Pro includes
          </Link>
        </p>
      </AlertDescription>
    </Alert>
  );
}
