import type { Field, ResourceModel } from "./types.js";

const flattened = (fields: Field[]): Field[] => fields.flatMap((f) => (f.kind === "object" ? flattened(f.children) : [f]));

// Every tool's inputs ask every resource for its fields: flattened once per resource, not once per tool and parameter.
const byResource = new WeakMap<ResourceModel, Field[]>();

/** A resource's fields with nested objects' parts in their place, as the input half looks ids and legends up. */
export function valueFields(resource: ResourceModel): Field[] {
  let fields = byResource.get(resource);
  if (!fields) {
    fields = flattened(resource.fields);
    byResource.set(resource, fields);
  }
  return fields;
}
