#!/usr/bin/env node
import { EXIT, printInternalError, type Io } from "./commands/io.js";
import { runCli } from "./commands/run.js";

const io: Io = { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };
// A failure no command caught, such as one in a watcher's callback, is a crash too, never a finding.
const crash = (error: unknown) => {
  printInternalError(io, error, process.argv.includes("--verbose"));
  process.exit(EXIT.internal);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
process.exitCode = await runCli(process.argv.slice(2), io);
