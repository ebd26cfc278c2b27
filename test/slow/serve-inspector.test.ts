import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../examples/support-desk/database.js";
import { createApiServer } from "../../examples/support-desk/http-api.js";
import { toolDefinitions } from "../../generated/support/index.js";
import { exampleProject } from "../helpers/example-project.js";
import { ROOT, tempDir } from "../helpers/pipeline.js";

// `projector serve` driven by the MCP Inspector's CLI, as a user checks a server by hand: each
// invocation starts the server over stdio, sends one method and prints the answer as JSON.

const INSPECTOR = join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
const CLI = join(ROOT, "dist/cli.js");

describe("projector serve under the MCP Inspector CLI", () => {
  let db: Database.Database;
  let api: Server;
  let baseUrl: string;
  const received: string[] = [];
  let cwd: string;

  beforeAll(async () => {
    db = openDatabase(join(tempDir(), "desk.db"));
    api = createApiServer(db, (method, url) => received.push(`${method} ${new URL(url).pathname}`));
    await new Promise<void>((listening) => api.listen(0, "127.0.0.1", listening));
    baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
    const project = exampleProject();
    // Inspector CLI 1.0.3 looks for its own package.json at ../package.json of the working folder
    // before importing it from beside its module: the folder it runs in needs a parent that has one.
    writeFileSync(join(project, "package.json"), "{}\n");
    cwd = join(project, "inspector");
    mkdirSync(cwd);
  });

  afterAll(async () => {
    api.closeAllConnections();
    await new Promise((closed) => api.close(closed));
    db.close();
  });

  async function inspect(...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [INSPECTOR, "--cli", "-e", `SUPPORT_API_URL=${baseUrl}`, process.execPath, CLI, "serve", "../projector.yaml", ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1" } },
    );
    return JSON.parse(stdout.slice(stdout.indexOf("{"))) as Record<string, unknown>;
  }

  it("lists the generated tools with tools/list", async () => {
    const listed = (await inspect("--method", "tools/list")) as { tools: unknown[] };
    expect(listed.tools).toEqual(JSON.parse(JSON.stringify(toolDefinitions)));
    expect(received).toEqual([]);
  }, 120_000);

  it("calls a tool with --tool-arg, the words of a legend going out as codes", async () => {
    const called = (await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "search_tickets",
      "--tool-arg",
      "query=refund",
      "status=open",
    )) as {
      structuredContent: { tickets: { subject: string; status: string }[] };
      isError?: boolean;
    };
    expect(called.isError).toBeUndefined();
    expect(called.structuredContent.tickets.length).toBeGreaterThan(0);
    for (const ticket of called.structuredContent.tickets)
      expect(ticket).toMatchObject({ subject: "Refund not received after cancellation", status: "open" });
    expect(received.filter((request) => request === "GET /v1/tickets")).toHaveLength(1);
    const { id } = db.prepare("SELECT id FROM tickets ORDER BY id LIMIT 1").get() as { id: string };
    const ticket = (await inspect("--method", "tools/call", "--tool-name", "get_ticket", "--tool-arg", `ticket_id=${id}`)) as {
      structuredContent: { id: string };
    };
    expect(ticket.structuredContent.id).toBe(id.slice(0, 12));
    expect(received).toContain(`GET /v1/tickets/${id}`);
  }, 120_000);
});
