/**
 * The MCP SDK, loaded when the MCP server is first used (a request to /mcp, `sightline mcp`)
 * rather than when any Sightline process starts: with its dependencies, about 250 ms of every
 * start-up otherwise (issue 16). Imported as values only through here; types are imported as types.
 */
type ServerModule = typeof import("@modelcontextprotocol/sdk/server/index.js");
type TypesModule = typeof import("@modelcontextprotocol/sdk/types.js");

let loading: Promise<{ server: ServerModule; types: TypesModule }> | null = null;

export function mcpSdk(): Promise<{ server: ServerModule; types: TypesModule }> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, types]) => ({ server, types }));
  return loading;
}
