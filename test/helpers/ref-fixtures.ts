// Specs spread over several files, loaded by the loader and by json-schema-ref-parser's own bundle().
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { localPath } from "../../src/openapi/files.js";
import { refParser } from "../../src/openapi/ref-parser.js";
import { tempDir } from "./pipeline.js";

/**
 * The library's options as the loader sets them: local files only, each read at once, as the
 * loader reads them. The library's own reader reads files in parallel and crawls each as its read
 * finishes, so under load the order of its documents changed from run to run.
 */
export const OPTIONS = {
  resolve: { external: true, http: false, file: { read: (file: { url: string }) => readFileSync(localPath(file.url) ?? file.url) } },
};

/** The library's bundle of the spec, as JSON text, or its error's message. */
export async function libraryBundle(entry: string): Promise<string> {
  try {
    return JSON.stringify(await new (refParser())().bundle(entry, OPTIONS as never));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const openapi = (body: string) => `openapi: 3.0.3\ninfo: { title: t, version: "1" }\n${body}`;

/** Each fixture: file name -> YAML text; the first file is the entry. */
export const REF_FIXTURES: Record<string, Record<string, string>> = {
  "external refs, to a whole file and into one": {
    "api.yaml": openapi(`paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "pet.yaml" } } }
        "404":
          description: missing
          content: { application/json: { schema: { $ref: "errors.yaml#/NotFound" } } }
components:
  schemas:
    Pet: { $ref: "pet.yaml" }
    Error: { $ref: "errors.yaml#/NotFound" }
`),
    "pet.yaml": "type: object\nproperties:\n  id: { type: string }\n  tag: { $ref: 'tag.yaml' }\n",
    "tag.yaml": "type: string\nenum: [a, b]\n",
    "errors.yaml":
      "NotFound:\n  type: object\n  properties:\n    message: { type: string }\n    code: { $ref: '#/Code' }\nCode: { type: integer }\n",
  },
  "nested external refs across folders": {
    "api.yaml": openapi(`paths:
  /a:
    $ref: "paths/a.yaml"
  /b:
    $ref: "paths/b.yaml"
`),
    "paths/a.yaml":
      "get:\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: { $ref: '../models/list.yaml' }\n",
    "paths/b.yaml":
      "get:\n  parameters:\n    - $ref: '../parameters.yaml#/page'\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: { $ref: '../models/item.yaml#/properties/owner' }\n",
    "models/list.yaml": "type: array\nitems: { $ref: 'item.yaml' }\n",
    "models/item.yaml": "type: object\nproperties:\n  owner: { $ref: 'user.yaml' }\n  id: { type: string }\n",
    "models/user.yaml": "type: object\nproperties:\n  name: { type: string }\n",
    "parameters.yaml": "page:\n  name: page\n  in: query\n  schema: { type: integer }\n",
  },
  "refs into refs": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Alias: { $ref: "#/components/schemas/Target" }
    Target: { $ref: "models.yaml#/Indirect" }
    Through: { $ref: "models.yaml#/Wrapper/properties/inner" }
    Deep: { $ref: "#/components/schemas/Alias" }
`),
    "models.yaml":
      "Indirect: { $ref: '#/Real' }\nReal: { type: object, properties: { x: { type: string } } }\nWrapper: { $ref: 'wrapper.yaml' }\n",
    "wrapper.yaml": "type: object\nproperties:\n  inner: { $ref: 'models.yaml#/Real' }\n",
  },
  "circular refs across files": {
    "api.yaml": openapi(`paths:
  /nodes:
    get:
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "node.yaml#/Node" } } }
components:
  schemas:
    Tree: { $ref: "tree.yaml" }
    Node: { $ref: "node.yaml#/Node" }
`),
    "node.yaml": "Node:\n  type: object\n  properties:\n    edge: { $ref: 'edge.yaml#/Edge' }\n",
    "edge.yaml": "Edge:\n  type: object\n  properties:\n    to: { $ref: 'node.yaml#/Node' }\n",
    "tree.yaml": "type: object\nproperties:\n  children:\n    type: array\n    items: { $ref: '#' }\n  parent: { $ref: 'tree.yaml' }\n",
  },
  "extended refs and sub-values of an inlined value": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    A: { $ref: "shapes.yaml#/Shape", description: "extended" }
    B: { $ref: "shapes.yaml#/Shape" }
    C: { $ref: "shapes.yaml#/Shape/properties/size" }
    D: { $ref: "shapes.yaml#/Shape/properties/size", nullable: true }
    longer_name_first: { $ref: "shapes.yaml#/Shape/properties/size/items" }
    E: { $ref: "shapes.yaml#/Described" }
`),
    "shapes.yaml":
      "Shape:\n  type: object\n  properties:\n    size:\n      type: array\n      items: { type: number }\nDescribed: { $ref: '#/Shape', description: 'described' }\n",
  },
  "a file whose $ref leads to a file that refers to itself": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    A: { $ref: "a.yaml" }
`),
    "a.yaml": "$ref: 'b.yaml'\n",
    "b.yaml": "$ref: 'b.yaml'\n",
  },
  // A value reached first through a deeper $ref, then a shallower one with more indirections: the
  // library drops the first inventory entry for each $ref inside it, and crawls it again if external.
  "definitions first, and one value reached at two depths": {
    "api.yaml": openapi(`paths:
  /x:
    get:
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "shared.yaml#/Box" } } }
        "201":
          description: ok
          content: { application/json: { schema: { $ref: "shared.yaml#/LabelAlias2" } } }
        "202":
          description: ok
          content: { application/json: { schema: { $ref: "shared.yaml#/TextAlias3" } } }
        "203":
          description: ok
          content: { application/json: { schema: { $ref: "shared.yaml#/HandleAlias" } } }
x: { a: { b: { c: { $ref: "shared.yaml#/Box" } } } }
x-shallower: { $ref: "shared.yaml#/BoxAlias" }
zz: { Box: { $ref: "shared.yaml#/Tray" } }
definitions:
  Box: { $ref: "shared.yaml#/Tray" }
$defs:
  Lid: { $ref: "shared.yaml#/Lid" }
`),
    "shared.yaml": `Box:
  type: object
  properties:
    lid: { $ref: '#/Lid' }
    label: { $ref: 'label.yaml' }
BoxAlias: { $ref: '#/Box' }
LabelAlias: { $ref: 'label.yaml' }
LabelAlias2: { $ref: '#/LabelAlias' }
TextAlias: { $ref: 'text.yaml' }
TextAlias2: { $ref: '#/TextAlias' }
TextAlias3: { $ref: '#/TextAlias2' }
HandleAlias: { $ref: 'handle.yaml' }
Tray:
  properties:
    handle: { $ref: 'handle.yaml' }
Lid: { type: string }
`,
    "label.yaml": "type: object\nproperties:\n  text: { $ref: 'text.yaml' }\n",
    "text.yaml": "type: string\n",
    "handle.yaml": "type: number\n",
  },
  "YAML aliases sharing objects that hold refs": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    One: &shared
      type: object
      properties:
        item: { $ref: "item.yaml" }
    Two: *shared
    Three: { properties: { again: *shared } }
`),
    "item.yaml": "type: object\nproperties:\n  id: &id { type: string, description: 'the id' }\n  other: *id\n",
  },
  "a self-referencing value in an external file": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Loop: { $ref: "loop.yaml#/Loop" }
`),
    "loop.yaml": "Loop: { $ref: '#/Loop' }\n",
  },
  "a dangling pointer into an external file": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Gone: { $ref: "models.yaml#/Missing" }
`),
    "models.yaml": "Present: { type: string }\n",
  },
  "keys that need escaping in pointers": {
    "api.yaml": openapi(`paths:
  /a/{id}~x:
    get:
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "models.yaml#/a~1b/properties/c%20d" } } }
        "201":
          description: ok
          content: { application/json: { schema: { $ref: "models.yaml#/a~1b" } } }
`),
    "models.yaml":
      "a/b:\n  type: object\n  properties:\n    c d: { type: string }\n    e~f: { $ref: '#/plain' }\nplain: { type: boolean }\n",
  },
  "a $ref with trailing spaces, which the library keeps after resolving it": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Spaced: { $ref: "models.yaml#/A " }
    Plain: { $ref: "models.yaml#/B" }
`),
    "models.yaml": `"A ": { type: object, properties: { b: { $ref: "#/B" }, c: { $ref: "c.yaml" } } }\nB: { type: string }\n`,
    "c.yaml": "type: integer\n",
  },
  "an extended $ref whose own keys hold external refs": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Mixed:
      $ref: "base.yaml"
      properties:
        extra: { $ref: "extra.yaml" }
`),
    "base.yaml": "type: object\nproperties:\n  id: { $ref: 'id.yaml' }\n",
    "extra.yaml": "type: string\n",
    "id.yaml": "type: integer\n",
  },
  "pointers through keys holding slashes, to a null, to the root document": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Slashed: { $ref: "models.yaml#/a/b/c" }
    Nothing: { $ref: "models.yaml#/empty" }
    Root: { properties: { again: { $ref: "#" } } }
`),
    "models.yaml": "a/b:\n  c: { type: string }\nempty: null\n",
  },
  "a pointer whose hash does not start with a slash": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Bad: { $ref: "models.yaml#A" }
`),
    "models.yaml": "A: { type: string }\n",
  },
  "a pointer to an object with a property named $ref": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Fields: { $ref: "models.yaml#/Model/properties" }
`),
    "models.yaml": "Model:\n  type: object\n  properties:\n    $ref: { type: string }\n    id: { type: integer }\n",
  },
  "a $ref to a file that is not there": {
    "api.yaml": openapi(`paths: {}
components:
  schemas:
    Here: { $ref: "here.yaml" }
    Gone: { $ref: "gone.yaml" }
`),
    "here.yaml": "type: object\nproperties:\n  next: { $ref: 'also-gone.yaml#/X' }\n",
  },
  "a key no JSON pointer can encode (a lone surrogate)": {
    "api.json": `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
      "components": {"schemas": {"A": {"$ref": "a.json"}, "B\\ud800": {"$ref": "b.json"}, "C": {"$ref": "c.json"}}}}`,
    "a.json": `{"type": "string"}`,
    "b.json": `{"type": "string"}`,
    "c.json": `{"type": "string"}`,
  },
};

export function writeFixture(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return join(dir, Object.keys(files)[0]!);
}
