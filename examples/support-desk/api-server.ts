import { fileURLToPath } from "node:url";
import { openDatabase } from "./database.js";
import { createApiServer, listen } from "./http-api.js";

// The support desk's API, served from its SQLite database: the part of the example that is the
// user's own. Its tools are served by `projector serve`, pointed at this API by SUPPORT_API_URL.
const file =
  process.env["SUPPORT_DESK_DB"] ??
  fileURLToPath(new URL("support-desk.db", import.meta.url));
const logRequest = process.env["SUPPORT_DESK_LOG_HTTP"]
  ? (method: string, url: string) =>
      process.stdout.write(`http: ${method} ${url}\n`)
  : undefined;
const base = await listen(
  createApiServer(openDatabase(file), logRequest),
  Number(process.env["SUPPORT_DESK_PORT"] ?? 4010),
);
process.stdout.write(
  `support-desk: API at ${base} (database ${file})\n` +
    `serve its tools to an MCP client with:\n` +
    `  SUPPORT_API_URL=${base} npx projector serve            # stdio\n` +
    `  SUPPORT_API_URL=${base} npx projector serve --http 3000  # http://127.0.0.1:3000/mcp\n`,
);
