import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";

// A real redis-server for the tests of shared id books, started on a free loopback port.

export const redisServer = (() => {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
})();

/** A port no one listens on now: the system's pick for a server bound to port 0, closed again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A redis-server of its own, on 127.0.0.1, keeping nothing on disk; resolves once it accepts connections. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const server = spawn(redisServer, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    };
    server.stdout.on("data", read);
    server.stderr.on("data", read);
    server.on("exit", (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => server.on("exit", () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      server.kill();
      await exited;
    },
  };
}
