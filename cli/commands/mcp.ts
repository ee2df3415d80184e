import { action, defineCommand, NoOptions } from "#cli/lib/command.ts";

export const mcp = defineCommand("mcp", "run a Model Context Protocol server on stdio (for Claude Desktop and other MCP clients)").action(
  action(NoOptions, async ({ context }) => {
    // Loaded here: the SDK is needed by this command only.
    const { serveMcp } = await import("#cli/mcp/server.ts");
    await serveMcp(context);
  }),
);
