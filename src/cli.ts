#!/usr/bin/env node
import { runCli } from "./commands/run.js";

process.exitCode = await runCli(process.argv.slice(2), { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
