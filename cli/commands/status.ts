import * as v from "valibot";
import { User } from "#src/contract/auth.ts";
import { QuotaStatus } from "#src/contract/quota.ts";
import { ApiStatus } from "#src/contract/status.ts";
import { action, defineCommand, NoOptions } from "#cli/lib/command.ts";
import { print, printJson } from "#cli/lib/output.ts";
import { visibleText } from "#src/core/display-text.ts";
import { providerStatusText, quotaText } from "#cli/lib/render.ts";
import { chosenText } from "#cli/lib/workspaces.ts";

/** `aisc status --json`: the server's status, who is signed in with what allowance (null when nobody), and the workspace `aisc workspace use` chose (null when none). */
export const StatusReport = v.object({
  server: v.string(),
  status: ApiStatus,
  user: v.nullable(User),
  quota: v.nullable(QuotaStatus),
  workspace: v.nullable(v.object({ id: v.string(), name: v.string() })),
});
export type StatusReport = v.InferOutput<typeof StatusReport>;

export const status = defineCommand(
  "status",
  "show the server's providers: how each runs, whether it answers (and if not, why and what to do); how payments run, and your quota",
).action(
  action(NoOptions, async ({ context }) => {
    const { api } = context;
    const [apiStatus, user] = await Promise.all([api.status(), context.token ? api.currentUser() : null]);
    const quota = user ? await api.quota() : null;
    const chosen = context.savedWorkspace;
    const report: StatusReport = { server: context.server, status: apiStatus, user, quota, workspace: chosen ? { id: chosen.id, name: chosen.name } : null };
    if (context.json) return printJson(report);
    print(providerStatusText(apiStatus));
    print(`Server:  ${context.server}`);
    print(`Billing: ${apiStatus.billing}${apiStatus.billing === "simulated" ? " (test mode: no card is charged)" : ""}`);
    print(
      user && quota
        ? `Signed in as ${visibleText(user.username)} · ${quotaText(quota)}`
        : context.token
          ? "Signed in: no (the token is invalid or revoked)"
          : "Signed in: no (aisc login)",
    );
    if (user) print(`Workspace: ${chosenText(chosen)}`);
  }),
);
