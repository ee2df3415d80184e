import { action, defineCommand, NoOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { CliError } from "#cli/lib/exit.ts";
import { print, printJson } from "#cli/lib/output.ts";
import { quotaText } from "#cli/lib/render.ts";

export const whoami = defineCommand("whoami", "show who the token signs you in as, and your plan").action(
  action(NoOptions, async ({ context }) => {
    const api = signedIn(context);
    const user = await api.currentUser();
    if (!user) throw new CliError("auth", "Invalid or revoked token");
    const quota = await api.quota();
    if (context.json) printJson({ ...user, isPro: quota.isPro });
    else print(`${user.username}${user.email ? ` <${user.email}>` : ""} on ${context.server} · ${quotaText(quota)}`);
  }),
);
