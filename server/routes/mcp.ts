/**
 * POST {site_url}/mcp — the MCP endpoint (server/mcp/endpoint.ts). Its server card is a discovery
 * document and is served with the others (routes/discovery.ts).
 */
import { handle, type Route } from '../app.ts';
import { createMcpHandler } from '../mcp/endpoint.ts';
import { MCP_PATH } from '../paths.ts';

export const mcpRoute: Route = (app, deps) => {
  const mcp = handle(deps, createMcpHandler(deps));
  app.all(MCP_PATH, mcp);
};
