// Generated modules import exactly the names their code uses, because each emitter declares a name
// as it writes the code that uses it; nothing reads the emitted text back. Two bugs of reading it
// back: a field the model reads as `Truncated` (and a drop reason naming runtime types) imported an
// unused `type Truncated`, and a resolver named `attributes` declared an unused `const attributes`.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Locals, moduleSpecifier, ModuleWriter } from "../src/emit/module.js";
import { generateFrom, ROOT } from "./helpers/pipeline.js";

const CORPUS = join(ROOT, "test/bad-inputs");

describe("ModuleWriter", () => {
  it("imports each used name once, by module path, values before types, each group sorted", () => {
    const module = new ModuleWriter("tools/list-notes");
    module.runtimeType("Unusable");
    module.runtime("string");
    module.type("resources/note", "NoteRecord");
    module.value("resources/note", "projectNote");
    module.runtime("MARKER_SCHEMAS");
    module.runtimeType("Labels");
    module.runtime("string");
    module.type("openapi", "paths");
    expect(module.render("code")).toBe(
      [
        'import type { paths } from "../openapi.js";',
        'import { projectNote, type NoteRecord } from "../resources/note.js";',
        'import { MARKER_SCHEMAS, string, type Labels, type Unusable } from "../runtime/index.js";',
        "",
        "code",
      ].join("\n"),
    );
  });

  it("imports a name used as a type and as a value once, as a value", () => {
    const module = new ModuleWriter("definitions");
    module.runtimeType("ResolverError");
    module.runtime("ResolverError");
    module.runtimeType("ResolverError");
    expect(module.importLines()).toEqual(['import { ResolverError } from "./runtime/index.js";']);
  });

  it("binds a runtime name under another when the module declares its own", () => {
    const module = new ModuleWriter("definitions");
    expect(module.runtime("registerTools", "registerOn")).toBe("registerOn");
    expect(module.importLines()).toEqual(['import { registerTools as registerOn } from "./runtime/index.js";']);
  });

  it("writes nothing before the code when nothing is imported", () => {
    expect(new ModuleWriter("resolvers").render("export interface Lookups {}")).toBe("export interface Lookups {}");
  });

  it("numbers a top-level name that folds to one already declared or imported", () => {
    const module = new ModuleWriter("resources/marker");
    module.runtime("MARKER_SCHEMAS");
    expect(module.local("MARKER_SCHEMAS")).toBe("MARKER_SCHEMAS_2");
    expect(module.local("MARKER_FOO_BAR")).toBe("MARKER_FOO_BAR");
    expect(module.local("MARKER_FOO_BAR")).toBe("MARKER_FOO_BAR_2");
    expect(() => module.runtime("MARKER_FOO_BAR")).toThrow(/declares MARKER_FOO_BAR/);
  });

  it("names modules relative to the importing one", () => {
    expect(moduleSpecifier("index", "runtime")).toBe('"./runtime.js"');
    expect(moduleSpecifier("tools/get-user", "resources/user")).toBe('"../resources/user.js"');
    expect(moduleSpecifier("tools/get-user", "tools/get-ticket")).toBe('"./get-ticket.js"');
  });
});

describe("Locals", () => {
  const locals = () => {
    const made: Locals<"root" | "attributes" | "relationships"> = new Locals({
      root: { declare: () => "const root = recordObject(record);", otherwise: () => "recordObject(record);" },
      attributes: { declare: () => `const attributes = section(${made.use("root")}, "attributes");` },
      relationships: { declare: () => `const relationships = section(${made.use("root")}, "relationships");` },
    });
    return made;
  };

  it("declares only the locals read, with the ones they read, in the order given", () => {
    const scope = locals();
    scope.use("relationships");
    expect(scope.statements()).toEqual(["const root = recordObject(record);", 'const relationships = section(root, "relationships");']);
  });

  it("writes the stand-in of a local nothing reads", () => {
    expect(locals().statements()).toEqual(["recordObject(record);"]);
  });
});

describe("generated modules", () => {
  it("import no runtime name that only a field name, a description or a drop reason mentions", async () => {
    const { files, problems } = await generateFrom(join(CORPUS, "accepted-drop-reason-names-runtime-types/projector.yaml"));
    expect(problems).toEqual([]);
    const ticket = files.get("resources/ticket.ts")!;
    expect(ticket).toContain("Truncated: boolean | null | Unusable;");
    expect(ticket).toContain("Model Context Protocol");
    const runtimeImport = /import \{([^}]*)\} from "\.\.\/runtime\/index\.js"/
      .exec(ticket)?.[1]
      ?.split(",")
      .map((name) => name.trim());
    expect(runtimeImport?.filter(Boolean)).toEqual([
      "argumentId",
      "boolean",
      "context",
      "recordObject",
      "string",
      // The result schema satisfies it.
      "type JsonSchema",
      "type RecordOptions",
      "type Unusable",
    ]);
  });

  it("write a resource's results as a literal where a field is named after an Object.prototype member", async () => {
    // An assignment to `this.valueOf` would read Object.prototype first: frozen, it throws.
    const { files, problems } = await generateFrom(join(CORPUS, "accepted-object-prototype-property-names/projector.yaml"));
    expect(problems).toEqual([]);
    const task = files.get("resources/task.ts")!;
    expect(task).not.toContain("plainObjects");
    expect(task).toContain("return {");
    expect(task).toContain("valueOf: string(");
  });

  it("declare each JSON:API section the projection reads once, whatever a resolver is called", async () => {
    const { files, problems } = await generateFrom(join(CORPUS, "accepted-resolver-named-attributes/projector.yaml"));
    expect(problems).toEqual([]);
    const note = files.get("resources/note.ts")!;
    const project = note.slice(note.indexOf("export function projectNote"));
    expect(project.match(/const attributes = /g)).toEqual(["const attributes = "]);
    expect(project).toContain('const attributes = section(root?.["attributes"], "attributes", ctx);');
    expect(project).toContain('const relationships = section(root?.["relationships"], "relationships", ctx);');
    expect(project).toContain("labels: lookups.attributes,");
  });
});
