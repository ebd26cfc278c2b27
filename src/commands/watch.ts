import { readlinkSync, realpathSync, watch, type FSWatcher } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import * as prettier from "prettier";
import { DiagnosticError } from "../diagnostics.js";
import { holdsPrettierConfig } from "../prettier-config.js";
import { createGenerateCache, typesKnown } from "../generate-cache.js";
import type { LoadedSpec } from "../openapi/load.js";
import { runGenerate, type GenerateOptions } from "./generate.js";
import type { GenerateHooks } from "../project/driver.js";
import type { AnnotatedProject, Project } from "../project/read.js";
import type { GenerateExtras } from "../project/extras.js";
import { generateProject } from "../project/generate.js";
import { printRefusal } from "./print.js";
import { displayPath } from "../project/display-path.js";
import { EXIT, printInternalError, type Io } from "./io.js";

/**
 * Long enough to fold an editor's save (temp file, rename, chmod) into one run. A longer burst, such
 * as a branch switch, may start a run midway; the changes after its start make one more, at once.
 */
const DEBOUNCE_MS = 80;

/** How many symbolic links in a row are followed, as the system follows them before it gives up. */
const MAX_LINKS = 40;

/**
 * The file, and where it is a symbolic link, each path its links lead through and the real file at
 * the end: a link changed to lead elsewhere is seen in its folder, a save of what it leads to in that
 * file's folder. A path that cannot be read ends the chain: the next run follows it again.
 */
function linkChain(file: string): string[] {
  const chain = [file];
  let at = file;
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    try {
      at = resolve(dirname(at), readlinkSync(at));
    } catch {
      break;
    }
    chain.push(at);
  }
  try {
    chain.push(realpathSync(file));
  } catch {
    // A dangling link: what it will lead to is watched in the chain already.
  }
  return [...new Set(chain)];
}

/**
 * `generate --watch`: one generate, then one more after each burst of changes to what it read.
 * Problems are printed and watching goes on. Only SIGINT or SIGTERM end it, with exit code 0.
 */
export function runWatch(options: GenerateOptions, io: Io): Promise<number> {
  const configPath = resolve(io.cwd, options.config);
  const display = (path: string) => displayPath(io.cwd, path);
  const say = (line: string) => options.silent || io.stdout.write(`${line}\n`);

  // What the runs read; a run that fails early leaves the last known values, so watching goes on.
  let project: AnnotatedProject | undefined;
  let specFiles: { spec: string; files: readonly string[] } | undefined;
  // The spec as last loaded, kept while none of its files changes: on a large spec, parsing it again
  // and typing it again would be most of a run whose edit was to the annotation alone.
  let loaded: LoadedSpec | undefined;
  let specChanged = true;
  const cache = createGenerateCache();
  let prettierConfig: string | null = null;
  // The plugin modules the config names by path: prettier imports each once per process, so an edit
  // to one is told, not answered with a run that would use the module as first imported.
  let pluginFiles = new Set<string>();
  // A project found up to date, whose files the watcher has yet to emit and format for its cache.
  let unprepared: { project: Project; extras: GenerateExtras } | undefined;

  let wanted = new Set<string>();
  // Each path watched, with the file of `wanted` it stands for: a file, and, where that is a symbolic
  // link, every link on the way and the file it leads to, whose saves the link's folder never sees.
  let watched = new Map<string, string>();
  const watchers = new Map<string, FSWatcher>();
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let due = true;
  let running = false;
  let writing: Promise<unknown> | undefined;
  let stopping = false;

  const hooks: GenerateHooks = {
    read: (read, spec) => {
      project = read;
      if (spec?.files) specFiles = { spec: read.specPath, files: spec.files };
      if (spec) loaded = spec;
      // The spec is watched from the moment its name is known: a save while the run reads it makes one more run.
      follow(false);
    },
    unchangedSpec: (specPath) => (!specChanged && specFiles?.spec === specPath ? loaded : undefined),
    cache,
    foundUpToDate: (found, extras) => (unprepared = { project: found, extras }),
    write: async (work) => {
      // Once stopping, the process exits as soon as no write is under way; never start one it would cut short.
      if (stopping) return new Promise<never>(() => {});
      const done = work();
      writing = done.catch(() => undefined);
      try {
        return await done;
      } finally {
        writing = undefined;
      }
    },
  };

  // A save is often several events: the plugin's edit is told once.
  const telling = new Set<string>();
  const tellPlugin = (file: string) => {
    if (telling.has(file)) return;
    telling.add(file);
    setTimeout(() => {
      telling.delete(file);
      say(`changed: ${display(file)}, a prettier plugin: plugins are loaded once per process; stop and start --watch to use it`);
    }, DEBOUNCE_MS).unref();
  };

  const schedule = (file: string) => {
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      due = true;
      void loop();
    }, DEBOUNCE_MS);
  };

  const generateOnce = async () => {
    // prettier caches the config files it found; a long-lived process must look again each run.
    await prettier.clearConfigCache();
    try {
      await runGenerate(options, io, hooks);
    } catch (error) {
      if (!(error instanceof DiagnosticError)) return printInternalError(io, error, options.verbose);
      printRefusal(io, error.diagnostics);
    }
    if (project) {
      const index = join(project.outputDir, "index.ts");
      prettierConfig = await prettier.resolveConfigFile(index).catch(() => prettierConfig);
      const plugins = prettierConfig ? ((await prettier.resolveConfig(index).catch(() => null))?.plugins ?? []) : [];
      pluginFiles = new Set(
        plugins.flatMap((plugin) =>
          typeof plugin === "string" && /^\.{1,2}[\\/]|^[\\/]/.test(plugin) ? [resolve(dirname(prettierConfig!), plugin)] : [],
        ),
      );
    }
  };

  /**
   * After a run that found the folder up to date, as the first run usually does, emits and formats
   * the project while nobody waits, writing nothing and printing nothing: the first edit is then
   * answered from the cache as every later one is, instead of laying out every file again. Only
   * with the source types known (taken from the folder): typing the spec would hold up the first edit's run.
   */
  const prepare = async () => {
    const ready = unprepared;
    unprepared = undefined;
    // Once a run has formatted, the cache holds its files; a save that changed nothing leaves them as they are.
    if (!ready || cache.formatted.size > 0 || !typesKnown(cache, ready.project.spec.document)) return;
    // Whatever goes wrong here goes wrong again in the next run, which reports it.
    await generateProject(ready.project, { format: true, extras: ready.extras, cache }).catch(() => undefined);
  };

  // The files the last `watching` line named; a run that watches others says so again.
  let announced: string | undefined;
  // Editors save by writing a temp file and renaming it over the old one, which ends a watch on the
  // file itself; a watch on its folder, filtered by name, sees every save.
  const follow = (announce = true) => {
    wanted = new Set([configPath]);
    if (project) {
      wanted.add(project.specPath);
      if (specFiles?.spec === project.specPath) for (const file of specFiles.files) wanted.add(file);
      if (prettierConfig) wanted.add(prettierConfig);
      for (const plugin of pluginFiles) wanted.add(plugin);
    }
    watched = new Map();
    for (const file of wanted) for (const path of linkChain(file)) if (!watched.has(path)) watched.set(path, file);
    const folders = new Set([...watched.keys()].map(dirname));
    // prettier lays out each output file with the configs it finds up from it: one made in a folder
    // between the annotation and the output folder applies as one beside the annotation does.
    if (project) for (const folder of foldersUpTo(dirname(project.outputDir), project.configDir)) folders.add(folder);
    for (const [folder, watcher] of watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, (_event, name) => {
          // A prettier config or .editorconfig made beside a watched file changes the layout of every file.
          const file =
            name === null
              ? folder
              : (watched.get(join(folder, name)) ?? (holdsPrettierConfig(join(folder, name)) ? join(folder, name) : undefined));
          if (file !== undefined && pluginFiles.has(file)) tellPlugin(file);
          else if (file !== undefined) schedule(file);
        });
        // The folder was removed; the next run watches it again if it is back.
        watcher.on("error", () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        // The folder does not exist (yet); the next run tries again.
      }
    }
    const watching = [...wanted].join("\n");
    if (announce && watching !== announced) {
      say(`watching ${[...wanted].map(display).join(", ")} (Ctrl-C to stop)`);
      announced = watching;
    }
  };

  // Never two runs at once: changes that arrive during a run set `due`, and the loop runs once more.
  const loop = async () => {
    if (running) return;
    running = true;
    while (due && !stopping) {
      due = false;
      clearTimeout(timer);
      if (changed.size > 0) say(`changed: ${[...changed].map(display).join(", ")}`);
      const specFileSet = new Set([...(specFiles?.files ?? []), ...(specFiles ? [specFiles.spec] : [])]);
      // A folder event without a name is taken to touch the spec; an annotation naming another spec is caught by its path.
      specChanged = !loaded || [...changed].some((file) => specFileSet.has(file) || (!wanted.has(file) && !holdsPrettierConfig(file)));
      changed.clear();
      unprepared = undefined;
      await generateOnce();
      if (!stopping) follow();
      if (!due && !stopping) await prepare();
    }
    running = false;
  };

  return new Promise<number>((resolveExit) => {
    const stop = async () => {
      // A second Ctrl-C means now, even in the middle of a write: the next generate repairs the folder.
      if (stopping) process.exit(EXIT.ok);
      stopping = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      // A run still generating has written nothing and is dropped; one swapping the folder is let finish.
      if (writing) await writing;
      say("stopped");
      // Exit now rather than resolve: a dropped run's prettier workers would hold the process for seconds.
      process.exit(EXIT.ok);
    };
    process.on("SIGINT", () => void stop());
    process.on("SIGTERM", () => void stop());
    // Watch the annotation from the start: a save during the first run, which takes seconds, still counts.
    follow(false);
    void loop().then(() => {
      if (watchers.size === 0 && !stopping) {
        io.stderr.write(`projector: nothing to watch: ${display(dirname(configPath))} does not exist\n`);
        resolveExit(EXIT.problems);
      }
    });
  });
}

/** `folder` and each folder above it up to `top`, when `folder` lies inside `top`; none otherwise. */
function foldersUpTo(folder: string, top: string): string[] {
  const inside = relative(top, folder);
  if (inside.startsWith("..") || isAbsolute(inside)) return [];
  const folders = [folder];
  for (let at = folder; at !== top; at = dirname(at)) folders.push(dirname(at));
  return folders;
}
