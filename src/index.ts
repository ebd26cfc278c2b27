export { parseAnnotation } from "./annotation/parse.js";
export type { Annotation, FieldRule, Legend } from "./annotation/types.js";
export { CODES, DiagnosticError, formatDiagnostic, type Diagnostic } from "./diagnostics.js";
export type { GenerateInput, GenerateOutput } from "./generate.js";
export { generate } from "./project/generate.js";
export type { Model } from "./model/types.js";
export { loadSpec, type LoadedSpec } from "./openapi/load.js";
export { runCli } from "./commands/run.js";
