// Query strings written as the spec declares each parameter's style, where openapi-fetch's default
// would explode every array.

import { asObject } from "./json.js";

/** How a query parameter is written in the URL (OpenAPI's `style`). */
export type QueryStyle =
  "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

/** A query parameter's name and how it is written; a parameter not listed is written as `form`, exploded. */
export interface QueryParameterStyle {
  readonly name: string;
  readonly in: string;
  readonly style?: QueryStyle;
  readonly explode?: boolean;
}

/** A name as the query carries it: escaped, but with the brackets of `filter[id]` as written. */
const queryName = (name: string) =>
  encodeURIComponent(name).replace(/%5B/gi, "[").replace(/%5D/gi, "]");

const queryValue = (value: unknown) =>
  encodeURIComponent(
    typeof value === "object" && value !== null
      ? JSON.stringify(value)
      : String(value),
  );

const DELIMITERS: Readonly<Record<QueryStyle, string>> = {
  form: ",",
  spaceDelimited: "%20",
  pipeDelimited: "|",
  deepObject: ",",
};

function queryPart(
  name: string,
  value: unknown,
  style: QueryStyle,
  explode: boolean,
): string[] {
  const key = queryName(name);
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== undefined && item !== null);
    if (items.length === 0) return [];
    return explode
      ? items.map((item) => `${key}=${queryValue(item)}`)
      : [`${key}=${items.map(queryValue).join(DELIMITERS[style])}`];
  }
  const object = asObject(value);
  if (object) {
    const entries = Object.entries(object).filter(
      ([, inner]) => inner !== undefined && inner !== null,
    );
    if (style === "deepObject")
      return entries.map(
        ([member, inner]) =>
          `${key}[${queryName(member)}]=${queryValue(inner)}`,
      );
    if (explode)
      return entries.map(
        ([member, inner]) => `${queryName(member)}=${queryValue(inner)}`,
      );
    return entries.length
      ? [
          `${key}=${entries.flatMap(([member, inner]) => [queryName(member), queryValue(inner)]).join(",")}`,
        ]
      : [];
  }
  return [`${key}=${queryValue(value)}`];
}

/**
 * openapi-fetch's `querySerializer` for one operation: each query parameter written by its own
 * style and explode (`filter[id]=a,b` for `form` unexploded), where the client's default would
 * write every array exploded and every object as `deepObject`.
 */
export function queryStringFor(
  parameters: readonly QueryParameterStyle[],
): (query: Record<string, unknown>) => string {
  const styles = new Map(
    parameters.filter((p) => p.in === "query").map((p) => [p.name, p]),
  );
  return (query) => {
    const parts: string[] = [];
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      const declared = styles.get(name);
      const style = declared?.style ?? "form";
      parts.push(
        ...queryPart(name, value, style, declared?.explode ?? style === "form"),
      );
    }
    return parts.join("&");
  };
}
