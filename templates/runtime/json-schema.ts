// The JSON Schemas the definitions carry, typed so that the consumers' own schema types take them.

/** A JSON value, as a schema's `enum`, `const` and `default` hold it. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type JsonSchemaType =
  "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

/**
 * The JSON Schema keywords the definitions use. A type alias with mutable arrays, so that every
 * schema here is assignable as it is to the consumers' own JSON Schema types: `JSONSchema7` of
 * @types/json-schema (the AI SDK's `jsonSchema()`), zod's `JSONSchema`, Anthropic's
 * `input_schema` and OpenAI's `parameters`.
 */
export type JsonSchema = {
  type?: JsonSchemaType | JsonSchemaType[];
  description?: string;
  enum?: JsonValue[];
  const?: JsonValue;
  default?: JsonValue;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  not?: JsonSchema;
  $ref?: string;
  $defs?: { [name: string]: JsonSchema };
};

/** A tool's input schema: an object of the arguments the model passes, and no others. */
export type ToolInputSchema = JsonSchema & {
  type: "object";
  properties: { [name: string]: JsonSchema };
  required: string[];
  additionalProperties: false;
};
