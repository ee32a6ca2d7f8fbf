/**
 * The MCP TypeScript SDK's server package (`@modelcontextprotocol/server`, v2) as ax-ts uses it:
 * every value `mcp/` takes from the SDK comes through this module. The published package carries
 * it as `dist/mcp/sdk.js`, with the SDK and its one dependency (zod) bundled in, so a program that
 * installs ax-ts does not install them (docs/architecture.md#what-the-package-holds; the SDK's and
 * zod's licences are in dist/mcp/sdk.js's header). It is loaded only by the runs that serve or
 * speak MCP, never at a CLI's start.
 */
export {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
  classifyInboundRequest,
  createMcpHandler,
  createRequestStateCodec,
} from '@modelcontextprotocol/server';
export { serveStdio } from '@modelcontextprotocol/server/stdio';
