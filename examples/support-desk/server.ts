import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  RequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { openDatabase } from "./database.js";
import { databaseResolvers } from "./resolvers.js";
import { LineTransport } from "./stdio-transport.js";
import { callTool, supportDeskTools } from "./tools.js";

// An MCP server over stdio: stdout carries the protocol, so everything else goes to stderr.
const file =
  process.env["SUPPORT_DESK_DB"] ??
  fileURLToPath(new URL("support-desk.db", import.meta.url));
const logSql = process.env["SUPPORT_DESK_LOG_SQL"]
  ? (sql: string) => process.stderr.write(`sql: ${sql}\n`)
  : undefined;
const db = openDatabase(file, logSql);
const tools = supportDeskTools(db, databaseResolvers(db), (issue) =>
  process.stderr.write(`projection: ${issue.message}\n`),
);

// The low-level Server, not McpServer: McpServer takes zod schemas, and the tools' output schemas
// are the JSON Schemas projector generated; handing them over as they are keeps them exact.
const server = new Server(
  { name: "support-desk", version: "1.0.0" },
  { capabilities: { tools: {} } },
);
// The SDK checks a request against the handler's schema before the handler runs and answers a
// mismatch (`params: {}` on tools/call) as an internal error, -32603. Checked there only as any
// object, tools/call params meet the Server's own check, which answers invalid params, -32602.
const anyParams = { params: RequestSchema.shape.params };
server.setRequestHandler(ListToolsRequestSchema.extend(anyParams), () => ({
  tools: tools.map(({ name, description, inputSchema, outputSchema }) => ({
    name,
    description,
    inputSchema,
    outputSchema,
  })),
}));
server.setRequestHandler(
  CallToolRequestSchema.extend(anyParams),
  async (loose) => {
    const request = CallToolRequestSchema.parse(loose);
    const result = await callTool(
      tools,
      request.params.name,
      request.params.arguments,
    );
    // Marks where one call's statements end, so a reader of the log can count them per call.
    logSql?.(`-- end of ${request.params.name}`);
    return result;
  },
);

await server.connect(new LineTransport());
process.stderr.write(
  `support-desk: serving search_tickets, get_ticket, add_comment over stdio (database ${file})\n`,
);
