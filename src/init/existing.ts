import { parse } from "yaml";
import { findOperation, type Operation } from "../model/operations.js";
import { isJsonObject } from "../openapi/schema.js";
import { unique } from "./arguments.js";
import type { Draft } from "./draft.js";

/** `get /tickets/{id}` for `getTicket`, `GET /tickets/{id}` or `get /tickets/{id}`: one key per operation. */
function operationKey(operations: Operation[], reference: string): string | undefined {
  const op = findOperation(operations, reference);
  return op ? `${op.method} ${op.path}` : undefined;
}

/**
 * Fits the draft to an annotation a person already wrote, so a re-run adds only what the spec
 * gained: a tool whose operation the file already has a tool for is not drafted again (whatever
 * the person named it), a resource reads as the file's resource of the same schema, and the
 * tools an id is an argument of are named as the file names them.
 */
export function adoptExisting(draft: Draft, existingText: string, operations: Operation[]): void {
  let root: unknown;
  try {
    root = parse(existingText);
  } catch {
    return;
  }
  if (!isJsonObject(root)) return;
  const tools = isJsonObject(root["tools"]) ? root["tools"] : {};
  const resources = isJsonObject(root["resources"]) ? root["resources"] : {};
  const toolByOperation = new Map<string, string>();
  for (const [name, tool] of Object.entries(tools)) {
    const reference = isJsonObject(tool) && typeof tool["operation"] === "string" ? tool["operation"] : undefined;
    const key = reference === undefined ? undefined : operationKey(operations, reference);
    if (key !== undefined && !toolByOperation.has(key)) toolByOperation.set(key, name);
  }
  const resourceBySchema = new Map<string, string>();
  for (const [name, resource] of Object.entries(resources)) {
    if (isJsonObject(resource) && typeof resource["schema"] === "string" && !resourceBySchema.has(resource["schema"]))
      resourceBySchema.set(resource["schema"], name);
  }

  const renamedTools = new Map<string, string>();
  for (const [name, tool] of [...draft.tools]) {
    const key = operationKey(operations, tool.operation);
    const written = key === undefined ? undefined : toolByOperation.get(key);
    if (written === undefined) continue;
    draft.tools.delete(name);
    renamedTools.set(name, written);
  }
  for (const [name, resource] of [...draft.resources]) {
    const written = resource.schema === undefined ? undefined : resourceBySchema.get(resource.schema);
    if (written === undefined || written === name) continue;
    draft.resources.delete(name);
    if (!draft.resources.has(written)) draft.resources.set(written, resource);
    for (const tool of draft.tools.values()) if (tool.resource === name) tool.resource = written;
  }
  const used = new Set([...draft.tools.values()].map((t) => t.resource));
  for (const name of [...draft.resources.keys()]) if (!used.has(name) && !(name in resources)) draft.resources.delete(name);
  for (const resource of draft.resources.values()) {
    for (const [, guess] of resource.fields) {
      const rule = guess.rule;
      if (typeof rule === "object" && Array.isArray(rule["argument"])) {
        rule["argument"] = (rule["argument"] as string[]).map((tool) => renamedTools.get(tool) ?? tool).filter(unique);
      }
    }
  }
}
