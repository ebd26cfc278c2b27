import { parseAnnotation } from "../../src/annotation/parse.js";
import { DiagnosticError, type Diagnostic } from "../../src/diagnostics.js";

/** The diagnostics parsing an annotation with one resource of these fields gives. */
export function fieldProblems(fields: string): readonly Diagnostic[] {
  try {
    parseAnnotation(`spec: a.yaml\noutput: out\nresources:\n  t:\n    fields:\n${fields}`, "projector.yaml");
    return [];
  } catch (error) {
    if (error instanceof DiagnosticError) return error.diagnostics;
    throw error;
  }
}
