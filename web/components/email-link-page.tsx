import type { UseMutationResult } from "@tanstack/react-query";
import { MailCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Alert, AlertDescription, ApiError, Button } from "#web/shared-chunk.ts";

/*
 * The pages an e-mail's link opens (an address's confirmation, a report recipient's): what the link
 * is for, in a heading and a line, and the button whose click proves the address.
 */

/** The page's title, heading and line. */
export function Said({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <title>{`${title} · AI Search Comparison`}</title>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">{children}</p>
    </>
  );
}

/** Confirm, and the server's word when it could not. */
export function ConfirmAction({ confirm }: { confirm: Pick<UseMutationResult<unknown, Error, void>, "mutate" | "isPending" | "isError" | "error"> }) {
  return (
    <>
      <div>
        <Button type="button" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
          <MailCheck aria-hidden="true" />
          Confirm
        </Button>
      </div>
      {confirm.isError ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>
            {confirm.error instanceof ApiError ? (confirm.error.serverMessage ?? confirm.error.message) : "Could not confirm. Please try again."}
          </AlertDescription>
        </Alert>
      ) : null}
    </>
  );
}
