import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserPlus, Users } from "lucide-react";
import { Link, useLocation } from "wouter";
import { INVITATION_PATH } from "#src/contract/workspaces.ts";
import { signInFrom } from "#web/lib/return-path.ts";
import { roleLabel, trackersPath, WORKSPACES_KEY, workspaceQueries } from "#web/lib/workspaces.ts";
import type { PrefetchContext } from "#web/page.ts";
import {
  Alert,
  AlertDescription,
  AlertTitle,
  api,
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  queries,
  Skeleton,
  toast,
} from "#web/shared-chunk.ts";

/** Who is reading decides what the server renders: the Accept button, or the way to sign in first. */
export async function prefetchInvitation({ queryClient, api: serverApi }: PrefetchContext) {
  await queryClient.ensureQueryData(queries.user(serverApi));
}

/**
 * /invitations/{token}, the link an invitation's `url` opens (ADR 071): what it is, and Accept. The
 * server tells nothing about an invitation before it is accepted (the link is the secret), so the
 * page says only that it is one. Signed out, the visitor signs in or makes an account and comes back
 * here; accepted, they go to the workspace's trackers.
 */
export function InvitationPage({ token }: { token: string }) {
  const { data: user, isPending } = useQuery(queries.user(api));
  return (
    <main className="container mx-auto flex w-full max-w-xl flex-1 flex-col px-4 py-10">
      <title>Invitation · AI Search Comparison</title>
      <Card>
        <CardHeader className="gap-2">
          <Users className="size-8 text-primary" aria-hidden="true" />
          <h1 className="text-2xl font-bold tracking-tight">You're invited to join a workspace</h1>
          <CardDescription>
            A workspace shares its trackers with its members, each with a role: viewers read them, editors change and run them, admins manage the members.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {isPending ? (
            <Skeleton className="h-9 w-40" aria-label="Checking sign-in" role="status" />
          ) : user ? (
            <Accept token={token} />
          ) : (
            <SignInFirst token={token} />
          )}
        </CardContent>
      </Card>
    </main>
  );
}

function SignInFirst({ token }: { token: string }) {
  const auth = signInFrom("/auth", `${INVITATION_PATH}/${encodeURIComponent(token)}`);
  return (
    <div className="space-y-3">
      <p>Log in or create an account to accept it. You'll come back here.</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link href={auth}>Log in</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href={`${auth}${auth.includes("?") ? "&" : "?"}tab=register`}>
            <UserPlus aria-hidden="true" />
            Create an account
          </Link>
        </Button>
      </div>
    </div>
  );
}

function Accept({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const accept = useMutation({
    mutationFn: () => api.acceptInvitation(token),
    onSuccess: async (accepted) => {
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
      const workspaces = await queryClient.fetchQuery(workspaceQueries.list(api));
      const workspace = workspaces.find((one) => one.id === accepted.workspaceId);
      const name = workspace?.name ?? "the workspace";
      toast({
        title: accepted.joined ? `You joined ${name}` : `You're already a member of ${name}`,
        description: `Your role: ${roleLabel(accepted.role)}.`,
      });
      navigate(trackersPath(workspace ?? { id: accepted.workspaceId, personal: false }));
    },
  });
  return (
    <div className="space-y-3">
      <Button type="button" disabled={accept.isPending || accept.isSuccess} onClick={() => accept.mutate()}>
        <UserPlus aria-hidden="true" />
        Accept invitation
      </Button>
      {accept.isError ? <Refusal error={accept.error} /> : null}
    </div>
  );
}

/** The server's words for an invitation it will not take: used, revoked, expired, for another address, or none. */
function Refusal({ error }: { error: Error }) {
  const code = error instanceof ApiError ? error.code : undefined;
  const message = error instanceof ApiError ? (error.serverMessage ?? error.message) : "Could not accept the invitation. Please try again.";
  const title =
    code === "WRONG_ACCOUNT"
      ? "This invitation is for another account"
      : code === "CONFLICT"
        ? "This invitation can't be used"
        : code === "NOT_FOUND"
          ? "Invitation not found"
          : "Could not accept the invitation";
  return (
    <Alert variant="destructive" role="alert">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
