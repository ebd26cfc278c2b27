// The inside-folder guard of the $ref resolver (src/openapi/files.ts): symlinks judged by where they lead.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { folderGuard } from "../src/openapi/files.js";
import { tempDir } from "./helpers/pipeline.js";

function layout() {
  const root = tempDir();
  const spec = join(root, "spec");
  const outside = join(root, "outside");
  mkdirSync(join(spec, "models"), { recursive: true });
  mkdirSync(outside);
  for (const file of [join(spec, "api.yaml"), join(spec, "models/a.yaml"), join(spec, "models/b.yaml"), join(outside, "secret.yaml")])
    writeFileSync(file, "type: string\n");
  symlinkSync(join(outside, "secret.yaml"), join(spec, "models/leak.yaml"));
  symlinkSync(join(spec, "models/a.yaml"), join(spec, "models/alias.yaml"));
  symlinkSync(outside, join(spec, "away"));
  symlinkSync(join(spec, "models"), join(spec, "same"));
  return { spec, outside, inside: folderGuard(realpathSync.native(spec)) };
}

describe("folderGuard", () => {
  it("judges each file by where it leads, the folders' real paths found once", () => {
    const { spec, outside, inside } = layout();
    const cases: [string, boolean][] = [
      [join(spec, "models/a.yaml"), true],
      [join(spec, "models/b.yaml"), true],
      [join(spec, "models/leak.yaml"), false],
      [join(spec, "models/alias.yaml"), true],
      [join(spec, "away/secret.yaml"), false],
      [join(spec, "same/a.yaml"), true],
      [join(spec, "models/../models/b.yaml"), true],
      [join(spec, "models/../../outside/secret.yaml"), false],
      [join(outside, "secret.yaml"), false],
      [join(spec, "models/missing.yaml"), true],
      [join(spec, "away/missing.yaml"), false],
      [join(spec, "nowhere/deeper/missing.yaml"), true],
      [spec, false],
    ];
    // Twice over, so the second round is judged from the folders already seen.
    for (const [path, expected] of [...cases, ...cases]) expect([path, inside(path)]).toEqual([path, expected]);
  });
});
