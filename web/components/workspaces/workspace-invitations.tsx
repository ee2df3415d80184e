import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useId, useState } from "react";
import { type CreatedInvitation, INVITATION_DAYS, type Workspace, type WorkspaceRole, workspaceRoles } from "#src/contract/workspaces.ts";
import { CopyField } from "#web/components/copy-field.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { roleLabel, workspaceQueries } from "#web/lib/workspaces.ts";
import {
  Alert,
  AlertDescription,
  api,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  NativeSelect,
  NativeSelectOption,
  Skeleton,
  toast,
} from "#web/shared-chunk.ts";

/**
 * Invite by link (admins and owners; only an owner invites an owner): a role and, optionally, the
 * one address that may accept. The link is shown this once (the server keeps only its hash), with
 * the pending invitations below it to revoke.
 */
export function WorkspaceInvitations({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const roleId = useId();
  const emailId = useId();
  const [role, setRole] = useState<WorkspaceRole>("viewer");
  const [email, setEmail] = useState("");
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const pending = useQuery(workspaceQueries.invitations(api, workspace.id));
  const invite = useMutation({
    mutationFn: () => api.createInvitation(workspace.id, { role, ...(email.trim() ? { email: email.trim() } : {}) }),
    onSuccess: async (invitation) => {
      setCreated(invitation);
      setEmail("");
      await queryClient.invalidateQueries({ queryKey: workspaceQueries.invitations(api, workspace.id).queryKey });
    },
  });
  const choices = workspaceRoles.filter((one) => workspace.role === "owner" || one !== "owner");
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId} role="heading" aria-level={2}>
          Invite
        </CardTitle>
        <CardDescription>{`An invitation is a link that works once, for ${INVITATION_DAYS} days. Name an e-mail address and only that account may accept it.`}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <form
          className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            invite.mutate();
          }}
        >
          <div className="space-y-1.5">
            <label htmlFor={roleId} className="text-sm font-medium">
              Role
            </label>
            <NativeSelect id={roleId} value={role} onChange={(event) => setRole(event.target.value as WorkspaceRole)} wrapperClassName="w-full">
              {choices.map((one) => (
                <NativeSelectOption key={one} value={one}>
                  {roleLabel(one)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={emailId} className="text-sm font-medium">
              E-mail (optional)
            </label>
            <Input
              id={emailId}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              placeholder="name@example.com"
            />
          </div>
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? "Creating..." : "Create invitation link"}
          </Button>
        </form>
        {invite.isError ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{errorText(invite.error)}</AlertDescription>
          </Alert>
        ) : null}
        {created ? (
          <div className="space-y-1.5 rounded-md border bg-muted/40 p-3" data-testid="invitation-link">
            <CopyField value={created.url} label="Invitation link" noun="link" autoFocus />
            <p className="text-xs text-muted-foreground">
              {`Shown only now. It expires ${utcDate(created.expiresAt)}.${created.emailed ? " It was also sent by e-mail." : ""}`}
            </p>
          </div>
        ) : null}
        <PendingInvitations workspace={workspace} invitations={pending.data} error={pending.error} />
      </CardContent>
    </Card>
  );
}

function PendingInvitations({
  workspace,
  invitations,
  error,
}: {
  workspace: Workspace;
  invitations: Awaited<ReturnType<typeof api.listInvitations>>["invitations"] | undefined;
  error: Error | null;
}) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (invitationId: string) => api.revokeInvitation(workspace.id, invitationId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: workspaceQueries.invitations(api, workspace.id).queryKey });
      toast({ title: "Invitation revoked", description: "Its link no longer works." });
    },
    onError: (failure) => toast({ variant: "destructive", title: "Could not revoke the invitation", description: errorText(failure) }),
  });
  if (error) return <p className="text-sm text-destructive">{errorText(error)}</p>;
  if (!invitations) return <Skeleton className="h-10 w-full" aria-label="Loading the pending invitations" role="status" />;
  if (invitations.length === 0) return <p className="text-sm text-muted-foreground">No pending invitations.</p>;
  return (
    <section aria-label="Pending invitations" className="space-y-2">
      <h3 className="text-sm font-medium">Pending invitations</h3>
      <ul className="divide-y rounded-md border">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm" data-testid="pending-invitation">
            <span className="min-w-0 break-words">
              <span className="font-medium">{roleLabel(invitation.role)}</span>
              {` · ${invitation.email ?? "anyone with the link"} · expires ${utcDate(invitation.expiresAt)}`}
            </span>
            <Button type="button" size="sm" variant="ghost" disabled={revoke.isPending} onClick={() => revoke.mutate(invitation.id)}>
              <X aria-hidden="true" />
              Revoke
              <span className="sr-only">{` the ${invitation.role} invitation${invitation.email ? ` for ${invitation.email}` : ""}`}</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A date the server and the browser write alike (no time zone of the reader's). */
export function utcDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}
