// A diagnostic quotes the annotation's and the spec's text: printed, each of its lines says one thing,
// whatever that text holds, and stays short enough to read.
import { describe, expect, it } from "vitest";
import { formatDiagnostic, type Diagnostic } from "../src/diagnostics.js";

const diagnostic = (message: string): Diagnostic => ({
  code: "PRJ021",
  severity: "error",
  message,
  help: "declared here: id",
  location: { file: "projector.yaml", line: 8, column: 5 },
});

describe("a printed diagnostic", () => {
  it("writes a line break, a bidirectional override and a control character in its words as escapes, on its one line", () => {
    const printed = formatDiagnostic(diagnostic("task.x\nprojector.yaml:1:1 PRJ000 forged \u202e\u001b[2J is not declared by the spec"));
    expect(printed.split("\n")).toEqual([
      "projector.yaml:8:5 PRJ021 task.x\\u000aprojector.yaml:1:1 PRJ000 forged \\u202e\\u001b[2J is not declared by the spec",
      "  help: declared here: id",
    ]);
  });

  it("cuts a line of a thousand characters and more, saying how long it was, never between the halves of a character", () => {
    const [first] = formatDiagnostic(diagnostic(`cannot read ${"1".repeat(5_000)}`)).split("\n");
    expect(first).toBe(`projector.yaml:8:5 PRJ021 cannot read ${"1".repeat(1000 - 38)}… (5,038 characters)`);
    const [astral] = formatDiagnostic(diagnostic(`${"a".repeat(973)}😀 is not declared`)).split("\n");
    expect(astral).toBe(`projector.yaml:8:5 PRJ021 ${"a".repeat(973)}… (1,017 characters)`);
  });
});
