// openapi-typescript alone on a spec: read, parse, type, print, write. Run by bench.mjs.
// A spec of one file is parsed here and handed over as a document: its own loader would try to open
// the `externalValue` example files the Datadog spec names but does not ship, so those entries are
// left out, as projector does. A spec spread over files (`--url`) is handed over as its entry's URL,
// so that openapi-typescript's loader follows the `$ref`s between them, as its CLI does.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { parse } from "yaml";

const [spec, out, mode] = process.argv.slice(2);
const strip = (value) => {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== "externalValue")
      .map(([k, v]) => [k, strip(v)]),
  );
};
const source = () => {
  if (mode === "--url") return pathToFileURL(spec);
  const text = readFileSync(spec, "utf8");
  return strip(
    spec.endsWith(".json")
      ? JSON.parse(text)
      : parse(text, { maxAliasCount: -1 }),
  );
};
writeFileSync(out, astToString(await openapiTS(source(), { silent: true })));
