import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { DoorOpen, UserMinus } from "lucide-react";
import { useId, useState } from "react";
import { useLocation } from "wouter";
import { type Member, roleAtLeast, type Workspace, type WorkspaceRole, workspaceRoles } from "#src/contract/workspaces.ts";
import { errorText } from "#web/lib/workbench.ts";
import { roleLabel, WORKSPACES_KEY, workspaceQueries } from "#web/lib/workspaces.ts";
import {
  Alert,
  AlertDescription,
  AlertTitle,
  api,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  NativeSelect,
  NativeSelectOption,
  queries,
  Skeleton,
  toast,
} from "#web/shared-chunk.ts";

/**
 * The members and their roles. Admins and owners change roles and remove members (only an owner
 * touches an owner); anyone may leave. The server refuses what would leave no owner, in its words.
 */
export function WorkspaceMembers({ workspace }: { workspace: Workspace }) {
  const headingId = useId();
  const { data: user } = useQuery(queries.user(api));
  const { data: members, error, isPending } = useQuery(workspaceQueries.members(api, workspace.id));
  // The last refusal, in the server's words (the last owner cannot leave, be removed or be demoted).
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId} role="heading" aria-level={2}>
          Members
        </CardTitle>
        <CardDescription>
          Viewers read everything here; editors also create, change and run trackers; admins manage members; owners may delete the workspace.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {refusal ? (
          <Alert variant="destructive" role="alert">
            <AlertTitle>Not changed</AlertTitle>
            <AlertDescription>{refusal}</AlertDescription>
          </Alert>
        ) : null}
        {isPending ? <Skeleton className="h-24 w-full" aria-label="Loading the members" role="status" /> : null}
        {error ? <p className="text-sm text-destructive">{errorText(error)}</p> : null}
        <ul className="divide-y" aria-label="Members">
          {(members ?? []).map((member) => (
            <li key={member.userId} data-testid="workspace-member">
              <MemberRow workspace={workspace} member={member} self={member.username === user?.username} onRefused={setRefusal} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function MemberRow({
  workspace,
  member,
  self,
  onRefused,
}: {
  workspace: Workspace;
  member: Member;
  self: boolean;
  onRefused: (message: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const selectId = useId();
  const mine = workspace.role;
  // An admin manages editors, viewers and admins; only an owner touches an owner or makes one.
  const manages = roleAtLeast(mine, "admin") && !self && (mine === "owner" || member.role !== "owner");
  const choices = workspaceRoles.filter((role) => mine === "owner" || role !== "owner");
  const done = async () => {
    onRefused(null);
    await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
  };
  const change = useMutation({
    mutationFn: (role: WorkspaceRole) => api.changeMemberRole(workspace.id, member.userId, role),
    onSuccess: async (changed) => {
      await done();
      toast({
        title: "Role changed",
        description: `${changed.username} is now ${changed.role === "admin" || changed.role === "owner" ? "an" : "a"} ${changed.role}.`,
      });
    },
    onError: (error) => onRefused(errorText(error)),
  });
  const remove = useMutation({
    mutationFn: () => api.removeMember(workspace.id, member.userId),
    onSuccess: async () => {
      await done();
      if (self) {
        toast({ title: "You left the workspace", description: `${workspace.name} is no longer among your workspaces.` });
        navigate("/trackers");
      } else toast({ title: "Member removed", description: `${member.username} is no longer a member of ${workspace.name}.` });
    },
    onError: (error) => onRefused(errorText(error)),
  });
  return (
    <div className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words">
          {member.username}
          {self ? <span className="text-muted-foreground"> (you)</span> : null}
        </p>
        <p className="text-xs text-muted-foreground">{`Joined ${new Date(member.joinedAt).toISOString().slice(0, 10)}`}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {manages ? (
          <>
            <label htmlFor={selectId} className="sr-only">{`Role of ${member.username}`}</label>
            <NativeSelect
              id={selectId}
              value={member.role}
              disabled={change.isPending}
              onChange={(event) => change.mutate(event.target.value as WorkspaceRole)}
              data-testid="member-role"
            >
              {choices.map((role) => (
                <NativeSelectOption key={role} value={role}>
                  {roleLabel(role)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
            <Button type="button" size="sm" variant="ghost" className="text-destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
              <UserMinus aria-hidden="true" />
              Remove
              <span className="sr-only">{` ${member.username}`}</span>
            </Button>
          </>
        ) : (
          <Badge variant="outline" data-testid="member-role-badge">
            {roleLabel(member.role)}
          </Badge>
        )}
        {self ? (
          <Button type="button" size="sm" variant="outline" disabled={remove.isPending} onClick={() => remove.mutate()}>
            <DoorOpen aria-hidden="true" />
            Leave workspace
          </Button>
        ) : null}
      </div>
    </div>
  );
}
