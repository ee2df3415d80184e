#!/usr/bin/env bun
/**
 * `aisc`: the command-line companion. This file only assembles the program; each command lives
 * in commands/<name>.ts, the shared pieces in lib/.
 */
import { Command } from "commander";
import { compare } from "./commands/compare.ts";
import { exportCommand } from "./commands/export.ts";
import { history } from "./commands/history.ts";
import { login } from "./commands/login.ts";
import { logout } from "./commands/logout.ts";
import { mcp } from "./commands/mcp.ts";
import { search } from "./commands/search.ts";
import { share } from "./commands/share.ts";
import { show } from "./commands/show.ts";
import { status } from "./commands/status.ts";
import { tokens } from "./commands/tokens.ts";
import { track } from "./commands/track.ts";
import { variants } from "./commands/variants.ts";
import { whoami } from "./commands/whoami.ts";
import { workspace } from "./commands/workspace.ts";
import { HELP_FOOTER } from "./lib/help.ts";
import { installInterruptHandler } from "./lib/interrupt.ts";
import { VERSION } from "./lib/version.ts";

installInterruptHandler();

const program = new Command()
  .name("aisc")
  .description("Ask ChatGPT, Claude and Gemini the same question with web search on, from a terminal.")
  .version(VERSION)
  .option("--server <url>", "the server (default: $AISC_SERVER, else the one you logged in to, else http://localhost:3000)")
  .option("--json", "print one JSON document on stdout (the API's shapes)")
  .option("-q, --quiet", "no progress or notes on stderr")
  .option(
    "--workspace <id|name>",
    "the workspace to act in, by id or name in any letter case (default: the one `aisc workspace use` chose): track and share lists and new ones, aisc workspace members|invite|audit; a command on one tracker checks it is the tracker's; other commands ignore it",
  )
  .showHelpAfterError("(add --help for usage)")
  .addHelpText("after", HELP_FOOTER);

program
  .addCommand(login)
  .addCommand(logout)
  .addCommand(whoami)
  .addCommand(status)
  .addCommand(search)
  .addCommand(history)
  .addCommand(show)
  .addCommand(exportCommand)
  .addCommand(variants)
  .addCommand(compare)
  .addCommand(track)
  .addCommand(share)
  .addCommand(workspace)
  .addCommand(tokens)
  .addCommand(mcp);

await program.parseAsync();
