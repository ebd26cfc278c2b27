// Details on request: the fields annotated `detail: full` are sent only when a call asks for them.

import type { Detail, ProjectOptions, RecordOptions } from "./context.js";
import { asObject } from "./json.js";

/**
 * The projection options of a tool call, with `detail: "full"` when its arguments ask for it; read
 * once the arguments are checked against the input schema, which takes only "summary" or "full".
 * `detail` is the tool's own argument: no API parameter takes it, so it is never sent.
 */
export function detailOf<O extends ProjectOptions>(
  options: O,
  args: unknown,
): O {
  return asObject(args)?.["detail"] === "full"
    ? { ...options, detail: "full" }
    : options;
}

/** The options each record of a page is projected with: the tool's, and the detail its call asked for. */
export function recordDetail(
  options: RecordOptions,
  detail: Detail | undefined,
): RecordOptions {
  return detail === "full" ? { ...options, detail } : options;
}
