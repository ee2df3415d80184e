import packageJson from "../../package.json" with { type: "json" };

/** The product's version, shown by `aisc --version` and the MCP server. */
export const VERSION: string = packageJson.version;
