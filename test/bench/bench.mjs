// `npm run bench`: projector against the tools users would otherwise reach for, measured side by
// side in one run on this machine. Figures are medians; ratios are what to compare across machines.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { largeSpec } from "./large-spec.mjs";
import { watchEdits } from "./watch-edit.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = join(ROOT, "dist/cli.js");
const REAL_SPECS = resolve(ROOT, "../shared/real-specs");
const here = (file) => join(ROOT, "test/bench", file);
const version = (name) =>
  JSON.parse(
    readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"),
  ).version;
const median = (values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * `npm run bench -- --only typical,generate` runs only those groups of rows: typical (every real
 * spec with the annotation of 25 tools in test/bench/typical/, as a first run and as a regenerate
 * over the last run's format cache, against openapi-typescript alone),
 * generate (every real spec's whole draft, and a large spec made here, against the same), init
 * (every spec's init against the same), watch (Datadog's regenerate with nothing changed and its watch edit), projection,
 * same-prefix, resolvers, id-book (a tool call with the id book on Redis against the one in memory).
 * `--specs datadog,constructed` limits the specs; `--rounds 3` sets the runs per spec.
 */
const GROUPS = [
  "typical",
  "generate",
  "init",
  "watch",
  "projection",
  "same-prefix",
  "resolvers",
  "id-book",
];
const flag = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
};
const only = flag("only")?.split(",") ?? GROUPS;
for (const group of only)
  if (!GROUPS.includes(group))
    throw new Error(
      `--only: no group "${group}"; groups: ${GROUPS.join(", ")}`,
    );
const runs = (group) => only.includes(group);

/** The whole real specs, run as a new user would: `init --accept-guesses`, then `generate`. */
const SPECS = [
  {
    name: "Datadog v2",
    entry: "datadog_v2_openapi.yaml",
    size: "4.2 MB",
    typical: "datadog",
  },
  {
    name: "TIDAL",
    entry: "tidal_api_oas.json",
    size: "1.5 MB",
    typical: "tidal",
  },
  {
    name: "PagerDuty",
    entry: "pagerduty_rest_openapiv3.json",
    size: "2.8 MB",
    typical: "pagerduty",
  },
  {
    name: "Sentry",
    entry: "sentry_openapi_derefed.json",
    size: "3.9 MB",
    typical: "sentry",
  },
  { name: "Box", entry: "box_openapi.json", size: "1.8 MB", typical: "box" },
  {
    name: "DigitalOcean",
    typical: "digitalocean",
    entry: "digitalocean/specification/DigitalOcean-public.v2.yaml",
    size: "2.7 MB in 2,900 files",
    multiFile: true,
  },
  {
    name: "Constructed JSON:API",
    constructed: 160,
    size: "3.8 MB, 1,760 operations",
  },
].filter(
  (spec) =>
    flag("specs") === undefined ||
    flag("specs")
      .split(",")
      .some((name) => spec.name.toLowerCase().startsWith(name.toLowerCase())),
);

/** GNU time reports a child's CPU time and peak memory; where it is missing, both are shown as 0. */
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** Wall time of one child process, its CPU time (user and system) and its peak memory. */
function timedOnce(args, options) {
  const started = performance.now();
  const result = GNU_TIME
    ? spawnSync(GNU_TIME, ["-f", "%U %S %M", process.execPath, ...args], {
        encoding: "utf8",
        ...options,
      })
    : spawnSync(process.execPath, args, { encoding: "utf8", ...options });
  const ms = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${args.join(" ")} failed:\n${result.stderr}`);
  const [user, system, peakKb] = GNU_TIME
    ? result.stderr.trim().split("\n").pop().split(" ").map(Number)
    : [0, 0, 0];
  return { ms, cpuMs: (user + system) * 1000, peakMb: peakKb / 1024 };
}

/**
 * Runs each task `rounds` times, the tasks taken in turns so that a spell of load on the machine
 * falls on all of them alike; for each, its first result with the medians of its figures, and every
 * round's figures (`each`) so that ratios can be taken round by round.
 */
function inTurns(tasks, rounds) {
  const runs = tasks.map(() => []);
  for (let i = 0; i < rounds; i++)
    tasks.forEach((task, k) => runs[k].push(task(i)));
  return runs.map((r) => ({
    ...r[0],
    each: r,
    ms: median(r.map((run) => run.ms)),
    cpuMs: median(r.map((run) => run.cpuMs)),
    peakMb: median(r.map((run) => run.peakMb)),
  }));
}

/** The median over rounds of one figure's ratio, each round's run against the same round's baseline. */
const ratio = (measured, baseline, figure = "ms") =>
  median(measured.each.map((run, i) => run[figure] / baseline.each[i][figure]));

const fmt = (ms) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
const mb = (run) => `${run.peakMb.toFixed(0)} MB`;
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
  `machine: ${cpus()[0]?.model ?? "unknown cpu"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; node ${process.version}; load average at start ${loadavg()[0].toFixed(1)}`,
);
console.log(
  `versions: projector ${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}, openapi-typescript ${version("openapi-typescript")}, prettier ${version("prettier")}, typescript ${version("typescript")}, kitsu-core ${version("kitsu-core")}\n`,
);

/** The consumer's own prettier config in the typical workload: not prettier's defaults. */
const CONSUMER_PRETTIERRC = '{ "singleQuote": true, "printWidth": 100 }\n';

const countTools = (annotation) =>
  (annotation.match(/^ {4}operation:/gm) ?? []).length;

/**
 * A work folder holding `annotation` as its projector.yaml, with the consumer's .prettierrc beside
 * it or none (prettier's defaults); `node_modules` is there so that generate writes its cache there.
 */
function workFolder(annotation, prettierrc) {
  const work = mkdtempSync(join(tmpdir(), "projector-bench-"));
  mkdirSync(join(work, "node_modules"));
  writeFileSync(join(work, "projector.yaml"), annotation);
  if (prettierrc) writeFileSync(join(work, ".prettierrc"), CONSUMER_PRETTIERRC);
  return work;
}

/** Removes what a work folder's last generate remembers of its inputs, its format cache kept. */
function forgetLastRun(work) {
  const cache = join(work, "node_modules/.cache/openapi-projector");
  for (const name of existsSync(cache) ? readdirSync(cache) : [])
    if (name.startsWith("last-run-")) rmSync(join(cache, name));
}

/** The spec's `init --accept-guesses` draft of every tool. */
function drafted(specPath) {
  const work = mkdtempSync(join(tmpdir(), "projector-bench-draft-"));
  mkdirSync(join(work, "node_modules"));
  execFileSync(process.execPath, [CLI, "init", specPath, "--accept-guesses"], {
    cwd: work,
    stdio: "ignore",
  });
  const annotation = readFileSync(join(work, "projector.yaml"), "utf8");
  return { work, annotation };
}

/** The typical annotation of a real spec (test/bench/typical/), its `spec:` made absolute. */
const typicalAnnotation = (spec, specPath) =>
  readFileSync(here(`typical/${spec.typical}.yaml`), "utf8").replace(
    /^spec: .*$/m,
    `spec: ${JSON.stringify(specPath)}`,
  );

// 1. Generate and init on every real spec, against openapi-typescript alone: the typical annotation
// (25 tools) and the whole draft, each with the consumer's .prettierrc and with prettier's defaults.
const x = (value) => `${value.toFixed(2)}x`;
/** Where a spec's entry file is: a real spec's in ../shared/real-specs, the constructed one written here. */
const constructedSpecs = mkdtempSync(join(tmpdir(), "projector-bench-spec-"));
const specPathOf = (spec) => {
  if (spec.constructed === undefined) return join(REAL_SPECS, spec.entry);
  const path = join(constructedSpecs, `large-${spec.constructed}.json`);
  if (!existsSync(path))
    writeFileSync(path, JSON.stringify(largeSpec(spec.constructed), null, 1));
  return path;
};
const benchSpecs = SPECS.filter(
  (spec) =>
    spec.constructed !== undefined || existsSync(join(REAL_SPECS, spec.entry)),
);
if (benchSpecs.length < SPECS.length)
  console.log(
    `Real specs: ${SPECS.length - benchSpecs.length} skipped, ../shared/real-specs is not here\n`,
  );
if (runs("typical") || runs("generate") || runs("init")) {
  const rounds = Number(flag("rounds") ?? 5);
  const table = [];
  for (const spec of benchSpecs) {
    const specPath = specPathOf(spec);
    const draft = drafted(specPath);
    const typical =
      runs("typical") && spec.typical !== undefined
        ? typicalAnnotation(spec, specPath)
        : undefined;
    // A first run generates into a new folder, with nothing cached; a regenerate runs again over
    // the folder and the format cache the last run left, as after an edit to the spec.
    const generates = [
      ...(typical === undefined
        ? []
        : [
            { workload: "typical", annotation: typical, prettierrc: true },
            {
              workload: "typical",
              annotation: typical,
              prettierrc: true,
              regenerate: true,
            },
            { workload: "typical", annotation: typical, prettierrc: false },
          ]),
      ...(runs("generate")
        ? [
            {
              workload: "whole",
              annotation: draft.annotation,
              prettierrc: true,
            },
            {
              workload: "whole",
              annotation: draft.annotation,
              prettierrc: false,
            },
          ]
        : []),
    ];
    for (const run of generates)
      if (run.regenerate) {
        run.work = workFolder(run.annotation, run.prettierrc);
        timedOnce([CLI, "generate", "--silent"], { cwd: run.work });
      }
    const alone = () =>
      timedOnce(
        [
          here("source-types-alone.mjs"),
          specPath,
          join(draft.work, "alone.ts"),
          ...(spec.multiFile ? ["--url"] : []),
        ],
        { cwd: ROOT },
      );
    const generate = (run) => () => {
      // Without the last run's digest every stage runs again, each unchanged file's layout from the
      // format cache (--force would format every file anew).
      if (run.regenerate) {
        forgetLastRun(run.work);
        return timedOnce([CLI, "generate", "--silent"], { cwd: run.work });
      }
      const work = workFolder(run.annotation, run.prettierrc);
      try {
        return timedOnce([CLI, "generate", "--silent"], { cwd: work });
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    };
    // Each init drafts a new file, as on a first run.
    const init = (round) =>
      timedOnce(
        [
          CLI,
          "init",
          specPath,
          "--accept-guesses",
          "-o",
          `again-${round}.yaml`,
        ],
        { cwd: draft.work },
      );
    const [base, ...measured] = inTurns(
      [alone, ...generates.map(generate), ...(runs("init") ? [init] : [])],
      rounds,
    );
    generates.forEach((run, i) => (run.result = measured[i]));
    const initialized = runs("init") ? measured.at(-1) : undefined;
    const find = (workload, prettierrc, regenerate = false) =>
      generates.find(
        (run) =>
          run.workload === workload &&
          run.prettierrc === prettierrc &&
          Boolean(run.regenerate) === regenerate,
      )?.result;
    const cell = (run) => (run ? `${fmt(run.ms)}: ${x(ratio(run, base))}` : "");
    const memory = (run) => (run ? x(ratio(run, base, "peakMb")) : "");
    const cells = [
      `${spec.name} (${spec.size})`,
      `${typical === undefined ? "-" : countTools(typical)}, ${countTools(draft.annotation)}`,
      `${fmt(base.ms)}, ${mb(base)}`,
      ...(runs("typical")
        ? [
            cell(find("typical", true)),
            cell(find("typical", true, true)),
            cell(find("typical", false)),
            memory(find("typical", true)),
          ]
        : []),
      ...(runs("generate")
        ? [
            cell(find("whole", true)),
            cell(find("whole", false)),
            memory(find("whole", true)),
          ]
        : []),
      ...(initialized ? [cell(initialized)] : []),
    ];
    // Each spec's figures as soon as they are measured: a long run cut short keeps them.
    console.error(cells.join(" | "));
    table.push(cells);
    for (const run of generates)
      if (run.work) rmSync(run.work, { recursive: true, force: true });
    rmSync(draft.work, { recursive: true, force: true });
  }
  console.log(
    `Real specs and one constructed here (test/bench/large-spec.mjs): generate with the typical annotation (test/bench/typical/, 25 tools) and with init --accept-guesses's whole draft, each with a consumer .prettierrc ${CONSUMER_PRETTIERRC.trim()} and with prettier's defaults, against openapi-typescript alone on the same spec: median of ${rounds} runs each, taken in turns; ratios are medians of each round's ratio. A first run generates into a new folder with nothing cached; a regenerate is generate over the last run's folder and format cache with the last run's digest forgotten, every stage run again, each file's layout taken from the cache where its text is unchanged`,
  );
  row(
    "spec",
    "tools (typical, whole)",
    "openapi-typescript alone",
    ...(runs("typical")
      ? [
          "typical, first run, .prettierrc (<= 1.5x)",
          "typical, regenerate, .prettierrc",
          "typical, first run, defaults",
          "its memory",
        ]
      : []),
    ...(runs("generate")
      ? ["whole, .prettierrc (<= 2x)", "whole, defaults", "its memory"]
      : []),
    ...(runs("init") ? ["init (< 1x)"] : []),
  );
  for (const cells of table) row(...cells);
  print();
}

// 2. Regenerating Datadog v2: with nothing changed, and after an edit to the annotation alone.
const datadog = benchSpecs.find((spec) => spec.name === "Datadog v2");
if (runs("watch") && datadog) {
  const draft = drafted(join(REAL_SPECS, datadog.entry));
  const work = workFolder(draft.annotation, false);
  rmSync(draft.work, { recursive: true, force: true });
  const [full, noop] = inTurns(
    [
      // A full generate formats every file: nothing is taken from the format cache.
      () => {
        rmSync(join(work, "node_modules/.cache/openapi-projector"), {
          recursive: true,
          force: true,
        });
        return timedOnce([CLI, "generate", "--force", "--silent"], {
          cwd: work,
        });
      },
      () => timedOnce([CLI, "generate", "--silent"], { cwd: work }),
    ],
    5,
  );
  console.log(
    "Datadog v2, regenerating: median of 5 runs each, taken in turns",
  );
  row("", "time", "peak memory", "against a full generate");
  row("projector generate", fmt(full.ms), mb(full), "");
  row(
    "projector generate, nothing changed",
    fmt(noop.ms),
    mb(noop),
    `${((noop.ms / full.ms) * 100).toFixed(1)}% (target < 10%)`,
  );
  // The watcher's debounce (120 ms) is part of what a person waits for, so it is counted.
  const edit = median(await watchEdits(CLI, work, 5));
  row(
    "generate --watch, one annotation edit",
    fmt(edit),
    "",
    `${((edit / full.ms) * 100).toFixed(1)}% (target < 1 s)`,
  );
  print();
  rmSync(work, { recursive: true, force: true });
}
rmSync(constructedSpecs, { recursive: true, force: true });

// 3. Projecting a 10,000-record JSON:API page.
if (
  runs("projection") ||
  runs("same-prefix") ||
  runs("resolvers") ||
  runs("id-book")
) {
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
  const project = (scenario, records, rounds = 40) =>
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
  // machine falls on all of them alike; the figure is the middle of the seven processes' figures.
  // Three were too few: one process's garbage-collector schedule could move the ratio by 0.05.
  if (runs("projection")) {
    const CHILDREN = 7;
    const [floor, generated, idBook, byHand, kitsu] = inTurns(
      ["json-parse", "generated", "id-book", "by-hand", "kitsu"].map(
        (scenario) => () => project(scenario, 10_000),
      ),
      CHILDREN,
    );
    console.log(
      `Projecting a 10,000-record JSON:API page (${(floor.bytes / 2 ** 20).toFixed(1)} MB): median of ${CHILDREN} processes, each the mean of ${floor.rounds} pages; each page is parsed, then projected, the two timed apart`,
    );
    const alone = (run) => median(run.each.map((each) => each.projectMs));
    const parsing = (run) => median(run.each.map((each) => each.parseMs));
    const perParse = (run) =>
      median(run.each.map((each) => each.projectPerParse));
    row(
      "",
      "parse included",
      "parse excluded",
      "peak memory",
      "speed against generated",
    );
    row(
      "JSON.parse alone (the floor)",
      fmt(floor.ms),
      "",
      `${floor.peakMb.toFixed(0)} MB`,
      "",
    );
    row(
      "projector, generated code",
      fmt(generated.ms),
      fmt(alone(generated)),
      `${generated.peakMb.toFixed(0)} MB`,
      "1.00x",
    );
    row(
      "the same, id book in use (createTools), new ids each page",
      fmt(idBook.ms),
      fmt(alone(idBook)),
      `${idBook.peakMb.toFixed(0)} MB`,
      "",
    );
    row(
      "hand-written project_ticket",
      fmt(byHand.ms),
      fmt(alone(byHand)),
      `${byHand.peakMb.toFixed(0)} MB`,
      `generated runs at ${(byHand.ms / generated.ms).toFixed(2)}x its speed (target >= 0.9x)`,
    );
    row(
      "kitsu-core deserialise + pick",
      fmt(kitsu.ms),
      fmt(alone(kitsu)),
      `${kitsu.peakMb.toFixed(0)} MB`,
      `generated is ${(kitsu.ms / generated.ms).toFixed(2)}x faster (target >= 3x)`,
    );
    print();
    const collectedIn = (run) =>
      run.each.reduce((sum, each) => sum + each.roundsCollectedIn, 0);
    console.log(
      `The generated projection alone, parse excluded, costs ${perParse(generated).toFixed(3)}x JSON.parse of the same page: its time over the pages against the parse's over the same pages, in the same process (target <= 0.3x; the ${CHILDREN} processes: ${generated.each
        .map((each) => each.projectPerParse.toFixed(3))
        .sort()
        .join(
          ", ",
        )}); with the id book in use ${perParse(idBook).toFixed(3)}x; the hand-written one ${perParse(byHand).toFixed(3)}x. A collection ran during the projection in ${collectedIn(generated)} of the generated code's ${CHILDREN * generated.rounds} pages, ${collectedIn(byHand)} of the hand-written one's.`,
    );
    console.log(
      `JSON.parse takes ${fmt(parsing(generated))} a page in the projecting processes and ${fmt(parsing(floor))} in those that only parse: collections that the projection's allocations bring on fall in the next parse, and the figure above counts them as the parse's. Against the parse in the processes that only parse, the projection costs ${(alone(generated) / parsing(floor)).toFixed(3)}x, the hand-written one ${(alone(byHand) / parsing(floor)).toFixed(3)}x.`,
    );
    console.log();
  }

  // 4. Ticket ids that all share a short form (UUIDv7 ids made within one minute), against the plain page.
  if (runs("same-prefix")) {
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
  }

  // 5. Resolver calls per page as rows grow.
  if (runs("resolvers")) {
    console.log("Resolver calls per page (users and orgs), as rows grow");
    row("records", "calls per page");
    for (const records of [10, 100, 1_000, 10_000])
      row(
        records.toLocaleString("en-US"),
        project("calls", records).callsPerPage,
      );
    print();
  }

  // 6. The id book shared on Redis against the one in the process's memory, per tool call.
  if (runs("id-book")) await benchIdBook(generatedDir);
  rmSync(generatedDir, { recursive: true, force: true });
}

/**
 * A tool call's time with its short ids remembered in, and recalled from, a redis-server started
 * here on 127.0.0.1, against the same call with the process's own book: a listing of new tickets,
 * whose short ids the shared book remembers in one transaction, then a fetch by one of them, which
 * it recalls. Each book runs in its own processes, taken in turns.
 */
async function benchIdBook(generatedDir) {
  const redisServer = spawnSync("sh", ["-c", "command -v redis-server"], {
    encoding: "utf8",
  }).stdout.trim();
  if (!redisServer) {
    console.log("The id book on Redis: skipped, redis-server is not installed");
    console.log();
    return;
  }
  const port = await new Promise((resolvePort) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
  const server = spawn(
    redisServer,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise((ready) =>
    server.stdout.on("data", (chunk) => {
      if (String(chunk).includes("Ready to accept connections")) ready();
    }),
  );
  const call = (book, records, rounds) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          here("id-book-store.mjs"),
          book,
          String(records),
          generatedDir,
          String(rounds),
          `redis://127.0.0.1:${port}`,
        ],
        { cwd: ROOT, encoding: "utf8" },
      ),
    );
  const CHILDREN = 3;
  console.log(
    `A tool call with the id book on Redis (redis-server on this machine, 127.0.0.1) against the book in memory: median of ${CHILDREN} processes, each the mean of its rounds`,
  );
  row(
    "tickets per page",
    "list, in memory",
    "list, on Redis",
    "fetch by short id, in memory",
    "fetch by short id, on Redis",
  );
  try {
    for (const [records, rounds] of [
      [25, 200],
      [100, 100],
      // About the most tickets a result may show: 800 make more text than MAX_RESULT_TEXT.
      [500, 40],
    ]) {
      const [memory, redis] = inTurns(
        ["memory", "redis"].map((book) => () => call(book, records, rounds)),
        CHILDREN,
      );
      const listed = (run) => median(run.each.map((each) => each.listMs));
      const fetched = (run) => median(run.each.map((each) => each.fetchMs));
      row(
        records.toLocaleString("en-US"),
        fmt(listed(memory)),
        `${fmt(listed(redis))} (+${fmt(listed(redis) - listed(memory))})`,
        fmt(fetched(memory)),
        `${fmt(fetched(redis))} (+${fmt(fetched(redis) - fetched(memory))})`,
      );
    }
    print();
  } finally {
    server.kill();
  }
}
