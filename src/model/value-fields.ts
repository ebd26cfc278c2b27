import { leafFields } from "../rules/field.js";
import type { Field, ResourceModel } from "./types.js";

// Every tool's inputs ask every resource for its fields: flattened once per resource, not once per tool and parameter.
const byResource = new WeakMap<ResourceModel, Field[]>();

/** A resource's fields with nested objects' parts in their place, as the input half looks ids and legends up. */
export function valueFields(resource: ResourceModel): Field[] {
  let fields = byResource.get(resource);
  if (!fields) {
    fields = leafFields(resource.fields);
    byResource.set(resource, fields);
  }
  return fields;
}
