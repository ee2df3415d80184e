import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { toJsonSchema } from "@valibot/to-json-schema";
import { z } from "zod";
import { signedIn, type Context } from "#cli/lib/context.ts";
import { describeError } from "#cli/lib/exit.ts";
import { VERSION } from "#cli/lib/version.ts";
import { tools, type Tool } from "./tools.ts";

/**
 * `aisc mcp`: a Model Context Protocol server on stdin/stdout, with the CLI's token and server
 * (so the user's tier and quota). stdout carries JSON-RPC only; notes go to stderr.
 */
export async function serveMcp(context: Context): Promise<void> {
  const server = new McpServer({ name: "aisc", version: VERSION });
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: inputSchemaOf(tool) }, async (args) => {
      try {
        const { summary, json } = await tool.run(signedIn(context), args, context);
        return {
          content: [
            { type: "text" as const, text: summary },
            { type: "text" as const, text: json },
          ],
        };
      } catch (error) {
        return { isError: true, content: [{ type: "text" as const, text: describeError(error, context.server).message }] };
      }
    });
  }
  await server.connect(new StdioServerTransport());
  process.stderr.write(`aisc ${VERSION}: MCP server on stdio for ${context.server}${context.token ? "" : " (no token: run aisc login or set AISC_TOKEN)"}\n`);
}

/**
 * The SDK takes zod schemas: the tool's valibot schema (from the contract) as JSON Schema, read
 * back by zod. The tool parses its arguments with the valibot schema again (trims, messages).
 */
function inputSchemaOf(tool: Tool) {
  return z.fromJSONSchema(toJsonSchema(tool.input, { errorMode: "ignore" }) as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodObject;
}
