// A consumer project as users make one: the packed tarball installed from npm, `projector generate`
// run from an npm script, the consumer's own compiler and formatter run over the result.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "./pipeline.js";

/** Runs a command; a failure's message carries what it printed, so the test report shows why. */
export function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_loglevel: "error" },
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

let tarball: string | undefined;

/** `npm pack` of this checkout, once per test file. */
export function packOnce(): string {
  if (tarball) return tarball;
  const packDir = tempDir("projector-pack-");
  run("npm", ["pack", "--pack-destination", packDir, "--ignore-scripts"], ROOT);
  tarball = join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith(".tgz"))!,
  );
  return tarball;
}

export interface ConsumerOptions {
  /** Extra packages the consumer installs beside projector (`prettier@3.3.3`). */
  packages?: string[];
  /** `module` (ESM) or `commonjs`, the consumer's package.json `type`. */
  type: "module" | "commonjs";
  compilerOptions: Record<string, unknown>;
}

/** A consumer with the bundled spec and annotation and a file using the generated code; returns its folder. */
export function consumerProject(options: ConsumerOptions): string {
  const consumer = tempDir("projector-consumer-");
  mkdirSync(join(consumer, "specs"));
  mkdirSync(join(consumer, "src"));
  cpSync(join(ROOT, "specs/support-tickets.openapi.yaml"), join(consumer, "specs/support-tickets.openapi.yaml"));
  cpSync(join(ROOT, "projector.yaml"), join(consumer, "projector.yaml"));
  writeFileSync(
    join(consumer, "src/tool.ts"),
    readFileSync(join(ROOT, "test/fixtures/consumer.ts"), "utf8").replace(
      "../../generated/support/index.js",
      "../generated/support/index.js",
    ),
  );
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: options.type, scripts: { generate: "projector generate" } }, null, 2),
  );
  writeFileSync(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        target: "ES2022",
        noEmit: true,
        skipLibCheck: true,
        types: [],
        ...options.compilerOptions,
      },
      include: ["src", "generated"],
    }),
  );
  // No openapi-fetch: the generated folder must compile without it; only code that makes a client needs it.
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", packOnce(), ...(options.packages ?? [])], consumer);
  return consumer;
}

/** The consumer's own TypeScript compiler over its project. */
export const consumerTsc = (consumer: string) => run("node", [join(consumer, "node_modules/typescript/bin/tsc"), "-p", "."], consumer);

/** The version of a package as installed in the consumer. */
export const installedVersion = (consumer: string, name: string) =>
  (JSON.parse(readFileSync(join(consumer, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
