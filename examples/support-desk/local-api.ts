import { fileURLToPath } from "node:url";
import { openDatabase } from "./database.js";
import { createApiServer, listen } from "./http-api.js";

/**
 * Serves the support desk's API from its SQLite database in this process, on a free loopback port
 * (or SUPPORT_DESK_PORT), and gives its base URL. SUPPORT_DESK_LOG_HTTP=1 logs every request it
 * receives on stderr, which is how a test counts them.
 */
export async function startLocalApi(): Promise<string> {
  const file =
    process.env["SUPPORT_DESK_DB"] ??
    fileURLToPath(new URL("support-desk.db", import.meta.url));
  const logRequest = process.env["SUPPORT_DESK_LOG_HTTP"]
    ? (method: string, url: string) =>
        process.stderr.write(`http: ${method} ${url}\n`)
    : undefined;
  const server = createApiServer(openDatabase(file), logRequest);
  const base = await listen(
    server,
    Number(process.env["SUPPORT_DESK_PORT"] ?? 0),
  );
  // The MCP server's stdin closing ends the process; the API must not keep it alive on its own.
  server.unref();
  process.stderr.write(`support-desk: API at ${base} (database ${file})\n`);
  return base;
}
