// How long `generate --watch` takes to answer an edit to the annotation alone: the wall time from the
// save to the end of the run it starts, read from the run's own `total` line (--verbose).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Starts a watcher in `work`, makes `edits` alternating edits to projector.yaml, and returns each edit's wall time in ms. */
export async function watchEdits(cli, work, edits) {
  const annotationPath = join(work, "projector.yaml");
  const original = readFileSync(annotationPath, "utf8");
  const line = original
    .split("\n")
    .findIndex((l) => /^ {6}\w+: keep\b/.test(l));
  if (line < 0)
    throw new Error("no `keep` field to edit in the drafted annotation");
  const lines = original.split("\n");
  const edited = [
    ...lines.slice(0, line),
    lines[line].replace(/: keep\b.*/, ': { drop: "edited by the bench" }'),
    ...lines.slice(line + 1),
  ].join("\n");

  const child = spawn(
    process.execPath,
    [cli, "generate", "--watch", "--verbose"],
    { cwd: work, stdio: ["ignore", "ignore", "pipe"] },
  );
  let waiting;
  let buffer = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    buffer += chunk;
    if (/^ {2}total +\S+/m.test(buffer)) {
      buffer = "";
      waiting?.();
    }
  });
  const runEnds = () => new Promise((resolve) => (waiting = resolve));
  await runEnds();
  const times = [];
  for (let i = 0; i < edits; i++) {
    const ended = runEnds();
    const started = performance.now();
    writeFileSync(annotationPath, i % 2 === 0 ? edited : original);
    await ended;
    times.push(performance.now() - started);
  }
  child.kill("SIGINT");
  writeFileSync(annotationPath, original);
  return times;
}
