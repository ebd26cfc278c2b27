// The CLI loads a command's modules only when that command runs: a generate does not load init's,
// eval's, tokens' or watch's. Spawns the built CLI (the test script builds first) with a module
// loader hook that notes every module loaded.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { exampleProject } from "./helpers/example-project.js";
import { ROOT, tempDir } from "./helpers/pipeline.js";

const CLI = join(ROOT, "dist/cli.js");
const COMMANDS = ["generate", "init", "eval", "tokens", "watch", "serve"];

/** The command modules of dist/commands/ that running the CLI with `args` in `cwd` loaded. */
function commandModulesLoaded(args: string[], cwd = tempDir()): string[] {
  const dir = tempDir();
  const log = join(dir, "loaded.txt");
  writeFileSync(log, "");
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}
`,
  );
  const register = `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  execFileSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, CLI, ...args], { cwd });
  const commands = pathToFileURL(join(ROOT, "dist/commands/")).href;
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith(commands))
    .map((url) => url.slice(commands.length).replace(/\.js$/, ""))
    .filter((name) => COMMANDS.includes(name))
    .sort();
}

describe("the CLI's start-up", () => {
  it("loads generate's module alone for generate", () => {
    expect(commandModulesLoaded(["generate", "--help"])).toEqual(["generate"]);
  });

  it("answers a regenerate with nothing to do without loading generate's module", () => {
    const project = exampleProject({ nodeModules: true });
    execFileSync(process.execPath, [CLI, "generate", "--silent"], { cwd: project });
    expect(commandModulesLoaded(["generate", "--silent"], project)).toEqual([]);
    // Once an input changed, generate's module does the work.
    writeFileSync(join(project, "projector.yaml"), `${readFileSync(join(project, "projector.yaml"), "utf8")}\n# edited\n`);
    expect(commandModulesLoaded(["generate", "--silent"], project)).toEqual(["generate"]);
  });

  it("loads init's module alone for init, serve's for serve, and no command's for --version", () => {
    expect(commandModulesLoaded(["init", "--help"])).toEqual(["init"]);
    expect(commandModulesLoaded(["serve", "--help"])).toEqual(["serve"]);
    expect(commandModulesLoaded(["--version"])).toEqual([]);
  });
});
