import { parseArgs, type ParseArgsConfig } from "node:util";
import { escapeControlCharacters } from "../control-characters.js";
import { DiagnosticError } from "../diagnostics.js";
import { MissingPeerError } from "../peers.js";
import { printRefusal } from "./print.js";
import { EXIT, type Io, printInternalError, UsageError } from "./io.js";

const HELP = `projector: typed projectors that turn OpenAPI responses into evidence for an LLM agent

Usage: projector <command> [options]

Commands:
  init        draft projector.yaml from a spec: every field listed, each with a guessed role
  generate    write the output folder from the spec and projector.yaml (--check for CI)
  tokens      count a tool's raw response against its projection with a real tokenizer
  eval        say whether the projection carries what each of the agent's questions needs
  serve       run the tools as an MCP server (stdio, or Streamable HTTP with --http), calling the API

Run \`projector <command> --help\` for a command's options; \`projector --version\` prints the version.

Exit codes: 0 ok, 1 problems in the inputs or stale output, 2 bad usage, 3 internal error (a bug
in projector; PROJECTOR_DEBUG=1 prints its stack).
`;

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  /** Each command's module is loaded only when it runs: a generate never loads init's, eval's or tokens'. */
  help(): Promise<string>;
  options: Options;
  positionals: number;
  run(values: Values, positionals: string[], io: Io): Promise<number>;
}

const config: Options = { config: { type: "string", short: "c" } };
const refs: Options = { "allow-remote-refs": { type: "boolean" }, "allow-outside-refs": { type: "boolean" } };
const text = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);

const COMMANDS: Record<string, Command> = {
  generate: {
    help: async () => (await import("./generate.js")).GENERATE_HELP,
    positionals: 0,
    options: {
      ...config,
      check: { type: "boolean" },
      watch: { type: "boolean" },
      silent: { type: "boolean" },
      verbose: { type: "boolean" },
      force: { type: "boolean" },
      ...refs,
      "allow-outside-output": { type: "boolean" },
    },
    run: async (values, _, io) => {
      const options = {
        config: text(values["config"]) ?? "projector.yaml",
        check: values["check"] === true,
        silent: values["silent"] === true,
        verbose: values["verbose"] === true,
        force: values["force"] === true,
        allowRemoteRefs: values["allow-remote-refs"] === true,
        allowOutsideRefs: values["allow-outside-refs"] === true,
        allowOutsideOutput: values["allow-outside-output"] === true,
      };
      if (values["watch"] !== true) {
        // Nothing to do is told before generate's modules load: they take longer than the answer.
        const answered = options.force ? undefined : await (await import("./up-to-date.js")).answerIfUpToDate(options, io);
        return answered ?? (await import("./generate.js")).runGenerate(options, io);
      }
      if (options.check)
        throw new UsageError("--watch and --check cannot be combined: --check checks once, for CI; --watch keeps writing the output");
      return (await import("./watch.js")).runWatch(options, io);
    },
  },
  init: {
    help: async () => (await import("./init.js")).INIT_HELP,
    positionals: 1,
    options: {
      output: { type: "string", short: "o" },
      operations: { type: "string" },
      tag: { type: "string" },
      "accept-guesses": { type: "boolean" },
      ...refs,
    },
    run: async (values, positionals, io) => {
      if (positionals[0] === undefined) throw new UsageError("init needs the spec: projector init specs/api.yaml");
      const operations = text(values["operations"])
        ?.split(",")
        .map((o) => o.trim())
        .filter(Boolean);
      const tag = text(values["tag"]);
      return (await import("./init.js")).runInit(
        {
          spec: positionals[0],
          output: text(values["output"]) ?? "projector.yaml",
          acceptGuesses: values["accept-guesses"] === true,
          allowRemoteRefs: values["allow-remote-refs"] === true,
          allowOutsideRefs: values["allow-outside-refs"] === true,
          ...(operations ? { operations } : {}),
          ...(tag !== undefined ? { tag } : {}),
        },
        io,
      );
    },
  },
  tokens: {
    help: async () => (await import("./tokens.js")).TOKENS_HELP,
    positionals: 1,
    options: {
      ...config,
      tool: { type: "string" },
      tokenizer: { type: "string" },
      labels: { type: "string" },
      "lookup-sample": { type: "string" },
      json: { type: "boolean" },
    },
    run: async (values, positionals, io) => {
      const tool = text(values["tool"]);
      if (tool === undefined) throw new UsageError("tokens needs --tool NAME");
      const labels = text(values["labels"]);
      const lookupSample = text(values["lookup-sample"]);
      return (await import("./tokens.js")).runTokens(
        {
          config: text(values["config"]) ?? "projector.yaml",
          tool,
          tokenizer: text(values["tokenizer"]) ?? "o200k_base",
          json: values["json"] === true,
          ...(positionals[0] !== undefined ? { payload: positionals[0] } : {}),
          ...(labels !== undefined ? { labels } : {}),
          ...(lookupSample !== undefined ? { lookupSample } : {}),
        },
        io,
      );
    },
  },
  eval: {
    help: async () => (await import("./eval.js")).EVAL_HELP,
    positionals: 1,
    options: { ...config, json: { type: "boolean" } },
    run: async (values, positionals, io) => {
      if (positionals[0] === undefined) throw new UsageError("eval needs a questions file: projector eval QUESTIONS.yaml");
      const configPath = text(values["config"]);
      return (await import("./eval.js")).runEval(
        { questions: positionals[0], json: values["json"] === true, ...(configPath !== undefined ? { config: configPath } : {}) },
        io,
      );
    },
  },
  serve: {
    help: async () => (await import("./serve.js")).SERVE_HELP,
    positionals: 1,
    options: { ...config, http: { type: "string" } },
    run: async (values, positionals, io) => {
      const http = text(values["http"]);
      const configPath = text(values["config"]);
      if (configPath !== undefined && positionals[0] !== undefined)
        throw new UsageError("serve takes the annotation file once: as its argument or with -c, not both");
      return (await import("./serve.js")).runServe(
        { config: positionals[0] ?? configPath ?? "projector.yaml", ...(http !== undefined ? { http } : {}) },
        io,
      );
    },
  },
};

/** The terminal as commands write to it: names, descriptions and reasons from the inputs are printed, and their control characters must not drive it. */
function printable(terminal: Io): Io {
  return {
    cwd: terminal.cwd,
    stdout: { write: (text) => terminal.stdout.write(escapeControlCharacters(text)) },
    stderr: { write: (text) => terminal.stderr.write(escapeControlCharacters(text)), isTTY: terminal.stderr.isTTY === true },
  };
}

/** Runs one command line; returns the exit code. 0 ok, 1 problems, 2 usage, 3 internal error. */
export async function runCli(argv: string[], terminal: Io): Promise<number> {
  const io = printable(terminal);
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${(await import("../output/digest.js")).projectorRelease()}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  try {
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}"`);
    const { values, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: command.positionals > 0,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
    });
    if (values["help"] === true) {
      io.stdout.write(await command.help());
      return EXIT.ok;
    }
    if (positionals.length > command.positionals) throw new UsageError(`${name} takes at most ${command.positionals} file argument(s)`);
    return await command.run(values as Values, positionals, io);
  } catch (error) {
    if (error instanceof DiagnosticError) {
      printRefusal(io, error.diagnostics);
      return EXIT.problems;
    }
    if (error instanceof MissingPeerError) {
      io.stderr.write(`projector: ${error.message}\n`);
      return EXIT.problems;
    }
    if (error instanceof UsageError || String((error as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(
        `projector: ${(error as Error).message}\nRun \`projector ${name && COMMANDS[name] ? `${name} ` : ""}--help\` for usage.\n`,
      );
      return EXIT.usage;
    }
    printInternalError(io, error, rest.includes("--verbose"));
    return EXIT.internal;
  }
}
