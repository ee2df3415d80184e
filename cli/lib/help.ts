import { EXIT } from "./exit.ts";

/** The end of `aisc --help`: configuration and exit codes. */
export const HELP_FOOTER = `
Configuration:
  AISC_SERVER   the server (same as --server)
  AISC_TOKEN    a personal API token (aisc_…); overrides the saved one
  The saved login is $XDG_CONFIG_HOME/aisc/config.json (default ~/.config/aisc/config.json, mode 0600),
  with the workspace \`aisc workspace use\` chose (for that server; --workspace overrides it once).

Exit codes:
  ${EXIT.ok}    ok
  ${EXIT.usage}    usage: a bad command, option or argument
  ${EXIT.auth}    not signed in, or the token is invalid or revoked
  ${EXIT.limit}    the daily quota is used up, Pro is required, or your role in the workspace does not allow it
  ${EXIT.server}    the server failed or could not be reached, or every provider failed
  ${EXIT.notFound}    not found: no such search (or batch, token, tracker, share link or workspace) of yours
  ${EXIT.partialRun}    a tracker run followed with --wait ended partial (some answers failed)
  ${EXIT.interrupted}  interrupted (Ctrl-C; a running search is cancelled on the server)

Examples:
  aisc login
  aisc search "best crm for a small agency" -n 5
  aisc search "best crm" --json | jq '.openai.products[].name'
  aisc export <id> -o crm.csv
  aisc track create --name "CRM" --query "best crm" --brand HubSpot --weekly mon@09:00
  aisc share search <id>
  aisc workspace create "Acme" && aisc workspace use acme && aisc workspace invite --role editor
  aisc track list --workspace "Acme"
`;
