// openapi-typescript alone on a spec: read, parse, type, print, write. Run by bench.mjs.
// Its own loader would try to open the `externalValue` example files the Datadog spec names but
// does not ship, so the document is parsed here and those entries are left out, as projector does.
import { readFileSync, writeFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";
import { parse } from "yaml";

const [spec, out] = process.argv.slice(2);
const strip = (value) => {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== "externalValue")
      .map(([k, v]) => [k, strip(v)]),
  );
};
const text = readFileSync(spec, "utf8");
const document = strip(
  spec.endsWith(".json")
    ? JSON.parse(text)
    : parse(text, { maxAliasCount: -1 }),
);
writeFileSync(out, astToString(await openapiTS(document, { silent: true })));
