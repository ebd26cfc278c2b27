import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  RequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import createClient from "openapi-fetch";
import {
  createResolvers,
  createTools,
  registerTools,
  toolDefinitions,
  type paths,
} from "../../generated/support/index.js";
import { startLocalApi } from "./local-api.js";
import { LineTransport } from "./stdio-transport.js";

// An MCP server over stdio whose tools are the generated ones, calling the support desk's API:
// SUPPORT_API when set, else the API served from the example's database in this process.
// stdout carries the protocol, so everything else goes to stderr.
const baseUrl = process.env["SUPPORT_API"] ?? (await startLocalApi());
const client = createClient<paths>({ baseUrl });
const tools = createTools({
  client,
  resolvers: createResolvers(client),
  onIssue: (issue) => process.stderr.write(`projection: ${issue.message}\n`),
});

const server = new Server(
  { name: "support-desk", version: "1.0.0" },
  { capabilities: { tools: {} } },
);
// The SDK checks a request against the handler's schema before the handler runs and answers a
// mismatch (`params: {}` on tools/call) as an internal error, -32603. Checked there only as any
// object, tools/call params meet the Server's own check, which answers invalid params, -32602.
const anyParams = { params: RequestSchema.shape.params };
registerTools(server, tools, {
  ListToolsRequestSchema: ListToolsRequestSchema.extend(anyParams),
  CallToolRequestSchema: CallToolRequestSchema.extend(anyParams),
});

await server.connect(new LineTransport());
process.stderr.write(
  `support-desk: serving ${toolDefinitions.map((tool) => tool.name).join(", ")} over stdio, calling ${baseUrl}\n`,
);
