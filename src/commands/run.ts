import { parseArgs } from "node:util";
import { runGenerate, GENERATE_HELP } from "./generate.js";

export interface Io {
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const EXIT = { ok: 0, problems: 1, usage: 2 } as const;

const HELP = `projector: typed projectors that turn OpenAPI responses into evidence for an LLM agent

Usage: projector <command> [options]

Commands:
  generate    write the output folder from the spec and projector.yaml (--check for CI)

Run \`projector <command> --help\` for a command's options.
`;

export class UsageError extends Error {}

/** Runs one command line; returns the exit code. 0 ok, 1 problems, 2 usage. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout.write(HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  try {
    switch (command) {
      case "generate": {
        const { values } = parseArgs({
          args: rest,
          strict: true,
          allowPositionals: false,
          options: {
            config: { type: "string", short: "c" },
            check: { type: "boolean" },
            silent: { type: "boolean" },
            "allow-remote-refs": { type: "boolean" },
            "allow-outside-output": { type: "boolean" },
            help: { type: "boolean", short: "h" },
          },
        });
        if (values.help) {
          io.stdout.write(GENERATE_HELP);
          return EXIT.ok;
        }
        return await runGenerate(
          {
            config: values.config ?? "projector.yaml",
            check: values.check === true,
            silent: values.silent === true,
            allowRemoteRefs: values["allow-remote-refs"] === true,
            allowOutsideOutput: values["allow-outside-output"] === true,
          },
          io,
        );
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`projector: ${(error as Error).message}\nRun \`projector --help\` for usage.\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
