// `npm run bench`: projector against the tools users would otherwise reach for, measured side by
// side in one run on this machine. Figures are medians; ratios are what to compare across machines.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { watchEdits } from "./watch-edit.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = join(ROOT, "dist/cli.js");
const DATADOG = resolve(ROOT, "../shared/real-specs/datadog_v2_openapi.yaml");
const here = (file) => join(ROOT, "test/bench", file);
const version = (name) =>
  JSON.parse(
    readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"),
  ).version;
const median = (values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** GNU time reports a child's peak memory; where it is missing, memory is shown as 0. */
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** Wall time of one child process, and its peak memory. */
function timedOnce(args, options) {
  const started = performance.now();
  const result = GNU_TIME
    ? spawnSync(GNU_TIME, ["-f", "%M", process.execPath, ...args], {
        encoding: "utf8",
        ...options,
      })
    : spawnSync(process.execPath, args, { encoding: "utf8", ...options });
  if (result.status !== 0)
    throw new Error(`${args.join(" ")} failed:\n${result.stderr}`);
  return {
    ms: performance.now() - started,
    peakMb: GNU_TIME
      ? Number(result.stderr.trim().split("\n").pop()) / 1024
      : 0,
  };
}

/**
 * Runs each task `rounds` times, the tasks taken in turns so that a spell of load on the machine
 * falls on all of them alike; for each, its first result with the medians of its times and peaks.
 */
function inTurns(tasks, rounds) {
  const runs = tasks.map(() => []);
  for (let i = 0; i < rounds; i++)
    tasks.forEach((task, k) => runs[k].push(task()));
  return runs.map((r) => ({
    ...r[0],
    ms: median(r.map((run) => run.ms)),
    peakMb: median(r.map((run) => run.peakMb)),
  }));
}

const fmt = (ms) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
const rows = [];
const row = (...cells) => rows.push(cells.map(String));
const print = () => {
  const widths = rows[0].map((_, c) =>
    Math.max(...rows.map((r) => (r[c] ?? "").length)),
  );
  for (const r of rows.splice(0))
    console.log(
      r
        .map((cell, c) =>
          c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]),
        )
        .join("  "),
    );
  console.log();
};

console.log(`projector bench, ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `machine: ${cpus()[0]?.model ?? "unknown cpu"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; node ${process.version}`,
);
console.log(
  `versions: projector ${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}, openapi-typescript ${version("openapi-typescript")}, prettier ${version("prettier")}, typescript ${version("typescript")}, kitsu-core ${version("kitsu-core")}\n`,
);

// 1. Generate on the whole Datadog v2 spec, against openapi-typescript alone.
if (existsSync(DATADOG)) {
  const work = mkdtempSync(join(tmpdir(), "projector-bench-"));
  mkdirSync(join(work, "node_modules"));
  execFileSync(process.execPath, [CLI, "init", DATADOG, "--accept-guesses"], {
    cwd: work,
    stdio: "ignore",
  });
  const tools = (
    readFileSync(join(work, "projector.yaml"), "utf8").match(
      /^ {4}operation:/gm,
    ) ?? []
  ).length;
  // A full generate is followed by one with nothing changed, and then openapi-typescript alone.
  const GENERATE_ROUNDS = 5;
  const [full, noop, alone] = inTurns(
    [
      () => timedOnce([CLI, "generate", "--force", "--silent"], { cwd: work }),
      () => timedOnce([CLI, "generate", "--silent"], { cwd: work }),
      () =>
        timedOnce(
          [here("source-types-alone.mjs"), DATADOG, join(work, "alone.ts")],
          { cwd: ROOT },
        ),
    ],
    GENERATE_ROUNDS,
  );
  console.log(
    `Datadog v2 (4.2 MB, ${tools} tools drafted by init --accept-guesses): median of ${GENERATE_ROUNDS} runs each, taken in turns`,
  );
  row("", "time", "peak memory", "ratio");
  row(
    "openapi-typescript alone",
    fmt(alone.ms),
    `${alone.peakMb.toFixed(0)} MB`,
    "1.00x",
  );
  row(
    "projector generate",
    fmt(full.ms),
    `${full.peakMb.toFixed(0)} MB`,
    `${(full.ms / alone.ms).toFixed(2)}x (target <= 1.5x)`,
  );
  row(
    "projector generate, nothing changed",
    fmt(noop.ms),
    `${noop.peakMb.toFixed(0)} MB`,
    `${((noop.ms / full.ms) * 100).toFixed(1)}% of a full generate (target < 10%)`,
  );
  // The watcher's debounce (120 ms) is part of what a person waits for, so it is counted.
  const edit = median(await watchEdits(CLI, work, 5));
  row(
    "generate --watch, one annotation edit",
    fmt(edit),
    "",
    `${((edit / full.ms) * 100).toFixed(1)}% of a full generate (target < 1 s)`,
  );
  print();
  rmSync(work, { recursive: true, force: true });
} else {
  console.log("Datadog v2: skipped, ../shared/real-specs is not here\n");
}

// 2. Projecting a 10,000-record JSON:API page.
const generatedDir = mkdtempSync(join(tmpdir(), "projector-bench-gen-"));
writeFileSync(
  join(generatedDir, "package.json"),
  JSON.stringify({ type: "module" }),
);
const supportFiles = readdirSync(join(ROOT, "generated/support"), {
  recursive: true,
}).filter((path) => path.endsWith(".ts") && path !== "openapi.ts");
for (const path of supportFiles) {
  const source = readFileSync(join(ROOT, "generated/support", path), "utf8");
  mkdirSync(dirname(join(generatedDir, path)), { recursive: true });
  writeFileSync(
    join(generatedDir, path.replace(/\.ts$/, ".js")),
    ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
      },
    }).outputText,
  );
}
const project = (scenario, records, rounds = 15) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        here("projection.mjs"),
        scenario,
        String(records),
        generatedDir,
        String(rounds),
      ],
      { cwd: ROOT, encoding: "utf8" },
    ),
  );
// Each scenario runs in seven child processes, taken in turns, so that a spell of load on this
// machine falls on all of them alike; the figure is the middle of the seven medians. Three were
// too few: one process's garbage-collector schedule could move the ratio by 0.05.
const CHILDREN = 7;
const [floor, generated, byHand, kitsu] = inTurns(
  ["json-parse", "generated", "by-hand", "kitsu"].map(
    (scenario) => () => project(scenario, 10_000),
  ),
  CHILDREN,
);
console.log(
  `Projecting a 10,000-record JSON:API page (${(floor.bytes / 2 ** 20).toFixed(1)} MB), parse included: median of ${CHILDREN} processes, each the median of ${floor.rounds} pages`,
);
row("", "time", "peak memory", "speed against generated");
row(
  "JSON.parse alone (the floor)",
  fmt(floor.ms),
  `${floor.peakMb.toFixed(0)} MB`,
  "",
);
row(
  "projector, generated code",
  fmt(generated.ms),
  `${generated.peakMb.toFixed(0)} MB`,
  "1.00x",
);
row(
  "hand-written project_ticket",
  fmt(byHand.ms),
  `${byHand.peakMb.toFixed(0)} MB`,
  `generated runs at ${(byHand.ms / generated.ms).toFixed(2)}x its speed (target >= 0.9x)`,
);
row(
  "kitsu-core deserialise + pick",
  fmt(kitsu.ms),
  `${kitsu.peakMb.toFixed(0)} MB`,
  `generated is ${(kitsu.ms / generated.ms).toFixed(2)}x faster (target >= 3x)`,
);
print();

// 3. Ticket ids that all share a short form (UUIDv7 ids made within one minute), against the plain page.
const SAME_PREFIX_CHILDREN = 3;
console.log(
  `Projecting a page whose ticket ids all share their first eight hex digits, against the plain page: median of ${SAME_PREFIX_CHILDREN} processes`,
);
row("records", "plain page", "same-prefix ids", "ratio");
for (const [records, rounds] of [
  [10_000, 15],
  [100_000, 5],
]) {
  const [plain, same] = inTurns(
    ["generated", "same-prefix"].map(
      (scenario) => () => project(scenario, records, rounds),
    ),
    SAME_PREFIX_CHILDREN,
  );
  row(
    records.toLocaleString("en-US"),
    fmt(plain.ms),
    fmt(same.ms),
    `${(same.ms / plain.ms).toFixed(2)}x (projected twice: target <= 3x, linear in the ids)`,
  );
}
print();

// 4. Resolver calls per page as rows grow.
console.log("Resolver calls per page (users and orgs), as rows grow");
row("records", "calls per page");
for (const records of [10, 100, 1_000, 10_000])
  row(records.toLocaleString("en-US"), project("calls", records).callsPerPage);
print();
rmSync(generatedDir, { recursive: true, force: true });
