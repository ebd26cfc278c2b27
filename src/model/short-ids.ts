import { squeezed } from "../naming.js";
import type { ResourceModel } from "./types.js";
import { valueFields } from "./value-fields.js";

/**
 * An id field whose short form results hand out and a tool takes back: the names a parameter that
 * takes it goes by, and the component schema its values follow.
 */
export interface IdSource {
  /** `task.id`, for messages. */
  label: string;
  /** Normalised names: `id` of resource `task` is `id` and `taskid`; a field `project_id` is `projectid`. */
  keys: Set<string>;
  schemaRef?: string;
}

/** `filter[project_id]` is named by its innermost part, `project_id`. */
export const parameterKey = (name: string) => squeezed(/\[([^\]]*)\]$/.exec(name)?.[1] ?? name);

/**
 * The short-id fields of every resource, by each tool their `argument:` list names, in resource and
 * field order: made once per model, not searched field by field for each tool.
 */
export function idSourcesByTool(resources: readonly ResourceModel[]): Map<string, IdSource[]> {
  const byTool = new Map<string, IdSource[]>();
  for (const resource of resources) {
    for (const field of valueFields(resource)) {
      if ((field.kind !== "value" && field.kind !== "related-id") || !field.shorten || !field.argumentOf?.length) continue;
      const own = squeezed(field.source.path.at(-1) ?? field.name);
      const keys = new Set([own]);
      if (own === "id") {
        // JSON:API types are plural (`tasks`), parameters singular (`task_id`).
        const name = squeezed(resource.name);
        keys.add(`${name}id`).add(`${name.replace(/s$/, "")}id`);
      } else if (field.kind === "related-id") keys.add(`${own}id`);
      // The id beside a joined name is also taken under the name the result gives it (`id_as`).
      if (field.kind === "related-id" && field.beside !== undefined) keys.add(squeezed(field.out));
      const source: IdSource = {
        label: `${resource.name}.${field.name}`,
        keys,
        ...(field.kind === "value" && field.schemaRef !== undefined ? { schemaRef: field.schemaRef } : {}),
      };
      // A list naming a tool twice names it once.
      for (const tool of new Set(field.argumentOf)) {
        const sources = byTool.get(tool);
        if (sources) sources.push(source);
        else byTool.set(tool, [source]);
      }
    }
  }
  return byTool;
}

/** The ids a parameter or body property of this name and component schema takes. */
export const sourcesTaken = (sources: IdSource[], name: string, schemaRef: string | undefined) =>
  sources.filter((s) => s.keys.has(parameterKey(name)) || (schemaRef !== undefined && s.schemaRef === schemaRef));

/**
 * The kinds of short id a parameter or body property that takes `own` expands: those, and the
 * tool's ids that no parameter or property takes (`ticket.assignee` for `get_user`'s `user_id`),
 * each once, in source order. A short id of any other kind is sent as given.
 */
export const kindsTaken = (own: IdSource[], unclaimed: IdSource[]): string[] => [...new Set([...own, ...unclaimed].map((s) => s.label))];
