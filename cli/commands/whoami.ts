import { action, defineCommand, NoOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { CliError } from "#cli/lib/exit.ts";
import { print, printJson } from "#cli/lib/output.ts";
import { quotaText } from "#cli/lib/render.ts";
import { chosenText } from "#cli/lib/workspaces.ts";
import { formatCents, formatUsd } from "#src/core/cost.ts";
import { visibleText } from "#src/core/display-text.ts";

export const whoami = defineCommand(
  "whoami",
  "show who the token signs you in as, your plan, what your searches cost today and this month, and the workspace you chose",
).action(
  action(NoOptions, async ({ context }) => {
    const api = signedIn(context);
    const user = await api.currentUser();
    if (!user) throw new CliError("auth", "Invalid or revoked token");
    const [quota, spend] = await Promise.all([api.quota(), api.spend()]);
    const chosen = context.savedWorkspace;
    if (context.json) printJson({ ...user, isPro: quota.isPro, spend, workspace: chosen ? { id: chosen.id, name: chosen.name } : null });
    else
      print(
        `${visibleText(user.username)}${user.email ? ` <${visibleText(user.email)}>` : ""} on ${context.server} · ${quotaText(quota)} · spent ${formatUsd(spend.todayUsd)} today (limit ${formatCents(spend.dailyLimitUsd)}), ${formatUsd(spend.monthUsd)} this month · workspace: ${chosenText(chosen)}`,
      );
  }),
);
