import * as v from "valibot";
import { CreateShare, ShareKind, type Share } from "#src/contract/shares.ts";
import { visibleText } from "#src/core/display-text.ts";
import { action, defineCommand, NoOptions, parseOptions, repeatable } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { note, print, printJson, table } from "#cli/lib/output.ts";
import { when } from "#cli/lib/trackers.ts";
import { checkShareIn, checkTrackerIn, currentWorkspace, withRole } from "#cli/lib/workspaces.ts";

/*
 * `aisc share`: read-only links to a saved search, a comparison or a tracker, for
 * someone without an account. Each subcommand is one call of the API client; `--json` prints its answer.
 */

// The flags as given; the contract's CreateShare checks them, its messages after the flag.
const CreateOptions = v.object({
  expiresInDays: v.optional(v.pipe(v.string(), v.transform(Number))),
  frozen: v.optional(v.boolean()),
  variant: v.optional(v.array(v.string())),
});

const list = defineCommand(
  "list",
  "list the share links of the current workspace (every member's), or the links you made when none is chosen: what each shows, its link, when it expires and when it was last opened",
).action(
  action(NoOptions, async ({ context }) => {
    const api = signedIn(context);
    const workspace = await currentWorkspace(context, api);
    const answer = await api.listShares(workspace ? { workspaceId: workspace.id } : {});
    if (context.json) return printJson(answer);
    if (answer.shares.length === 0) return print("No share links yet: aisc share search <id>");
    print(
      table(
        ["ID", "Kind", "Title", "Link", "Created", "Expires", "Last opened"],
        answer.shares.map((share) => [
          share.id,
          kindText(share),
          visibleText(share.title),
          share.url,
          share.createdAt.slice(0, 10),
          share.expired ? "expired" : (share.expiresAt?.slice(0, 10) ?? "never"),
          share.lastOpenedAt ? `${when(share.lastOpenedAt)} UTC` : "never",
        ]),
      ),
    );
  }),
);

const revoke = defineCommand("revoke", "revoke a share link (one of yours, or as an editor of its workspace): it answers 404 from then on")
  .argument("<id>", "the link's id (aisc share list)")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [id] }) => {
      const api = signedIn(context);
      await checkShareIn(context, api, id);
      const answer = await api.revokeShare(id);
      if (context.json) return printJson(answer);
      print(`Revoked ${id}.`);
    }),
  );

/** `aisc share <kind> <id>` makes a link; `aisc share list` and `aisc share revoke <id>` manage them. */
export const share = defineCommand(
  "share",
  "make a read-only link anyone can open without an account: to a saved search, a comparison of a query with its variants (Pro) or a tracker (Pro)",
)
  .argument("<kind>", "search, compare or tracker")
  .argument("<id>", "the saved search's id (for compare: the original query's; aisc history), or the tracker's (aisc track list)")
  .option("--expires-in-days <n>", "the link stops working after this many days (1–365; default: until revoked)")
  .option("--frozen", "tracker: a snapshot of the runs finished now, instead of the living report")
  .option("--variant <query>", "compare: a variant to compare with (repeat it; default: the query's saved variants)", repeatable)
  .addCommand(list)
  .addCommand(revoke)
  .action(
    action<typeof CreateOptions, [string, string]>(CreateOptions, async ({ context, options, args: [kind, id] }) => {
      const api = signedIn(context);
      const shareKind = parseOptions(ShareKind, kind);
      // A tracker's link is always its tracker's workspace's: a --workspace given is checked against it instead.
      if (shareKind === "tracker") await checkTrackerIn(context, api, id);
      const workspace = shareKind === "tracker" ? undefined : await currentWorkspace(context, api);
      const request = parseOptions(
        CreateShare,
        {
          kind: shareKind,
          id,
          ...(workspace ? { workspaceId: workspace.id } : {}),
          ...(options.expiresInDays === undefined ? {} : { expiresInDays: options.expiresInDays }),
          ...(options.frozen === undefined ? {} : { frozen: options.frozen }),
          ...(options.variant === undefined ? {} : { variants: options.variant }),
        },
        (path) => (path[0] === "variants" ? "--variant" : path[0] === "expiresInDays" ? "--expires-in-days" : path[0] === "frozen" ? "--frozen" : undefined),
      );
      const created = await withRole(workspace, api.createShare(request));
      if (context.json) return printJson(created);
      print(created.url);
      note(
        context.quiet,
        `Anyone with this link can read it${created.expiresAt ? ` until ${created.expiresAt.slice(0, 10)}` : ""}; revoke it with aisc share revoke ${created.id}`,
      );
      // Made with a token: the link outlives it (revoking the token leaves the link), as the answer says.
      if (created.note) note(context.quiet, created.note);
    }),
  );

function kindText(share: Share): string {
  return share.kind === "tracker" ? (share.frozen ? "tracker (frozen)" : "tracker (living)") : share.kind;
}
