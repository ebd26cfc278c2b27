#!/usr/bin/env node
import { EXIT, printInternalError, type Io } from "./commands/io.js";
import { keepShortLivedObjectsYoung } from "./heap-tuning.js";
import { SourceTypesThreads } from "./openapi/source-types-thread.js";

keepShortLivedObjectsYoung();

const argv = process.argv.slice(2);
// A generate types the spec in a worker thread started before anything else is loaded: openapi-typescript
// and TypeScript load there while this thread loads the commands, reads the annotation and loads the spec.
// A plain generate may find nothing to do; it starts the thread once it has looked (generateOnce).
const mayFindNothingToDo = !argv.some((arg) => arg === "--force" || arg === "--check" || arg === "--watch");
const threads = argv[0] === "generate" ? new SourceTypesThreads({ prestart: !mayFindNothingToDo }) : undefined;
const io: Io = { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };
// A failure no command caught, such as one in a watcher's callback, is a crash too, never a finding.
const crash = (error: unknown) => {
  printInternalError(io, error, argv.includes("--verbose"));
  process.exit(EXIT.internal);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
const { runCli } = await import("./commands/run.js");
try {
  process.exitCode = await runCli(argv, io, threads);
} finally {
  await threads?.close();
}
