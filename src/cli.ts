#!/usr/bin/env node
import { EXIT, printInternalError, type Io } from "./commands/io.js";

const argv = process.argv.slice(2);
const io: Io = { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };
// A failure no command caught, such as one in a watcher's callback, is a crash too, never a finding.
const crash = (error: unknown) => {
  printInternalError(io, error, argv.includes("--verbose"));
  process.exit(EXIT.internal);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
const { runCli } = await import("./commands/run.js");
process.exitCode = await runCli(argv, io);
