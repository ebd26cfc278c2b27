// Reporting what a projection could not read: the markers it writes and the issues it reports.

import {
  settledQuietly,
  type Context,
  type ProjectionIssue,
} from "./context.js";
import type { Unusable } from "./markers.js";
import {
  clipped,
  ISSUE_VALUE_CHARACTERS,
  printable,
  typeName,
} from "./quoting.js";

/**
 * Tells `onIssue` of an issue. Its message is {@link printable} whole, whatever quoted the values in
 * it: a consumer prints messages to a terminal or a log, where an id's controls or invisible
 * characters would act rather than be read.
 */
export function report(
  ctx: Context,
  kind: ProjectionIssue["kind"],
  field: string,
  value: unknown,
  message: string,
  resolver?: string,
): void {
  if (!ctx.onIssue) return;
  const shown = issueValue(value);
  const printed = printable(message);
  settledQuietly(
    ctx.onIssue(
      resolver === undefined
        ? {
            kind,
            resource: ctx.resource,
            field,
            value: shown,
            message: printed,
          }
        : {
            kind,
            resource: ctx.resource,
            field,
            value: shown,
            message: printed,
            resolver,
          },
    ),
  );
}

/**
 * An issue's `value`, as {@link ProjectionIssue.value} describes it: a string {@link printable}
 * as the message is, since a consumer prints both.
 */
export function issueValue(value: unknown): unknown {
  if (typeof value === "string")
    return printable(clipped(value, ISSUE_VALUE_CHARACTERS));
  return typeof value === "object" && value !== null
    ? typeName(value)
    : typeof value === "function" || typeof value === "symbol"
      ? typeof value
      : value;
}

export function unusable(
  ctx: Context,
  field: string,
  value: unknown,
  reason: string,
): Unusable {
  report(ctx, "unusable", field, value, `${ctx.resource}.${field}: ${reason}`);
  return { unusable: reason };
}

/** Absent and null both project to null; the schema's promise of a value is reported when broken. */
export function absent(
  ctx: Context,
  field: string,
  value: unknown,
  required: boolean,
): null {
  if (required)
    report(
      ctx,
      "missing",
      field,
      value,
      `${ctx.resource}.${field}: the spec promises a value, the record has ${value === null ? "null" : "none"}`,
    );
  return null;
}
