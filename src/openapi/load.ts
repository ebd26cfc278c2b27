import type SwaggerParser from "@apidevtools/swagger-parser";
import { realpath } from "node:fs/promises";
import { dirname, posix, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, SourceLocation } from "../diagnostics.js";
import { DiagnosticError, overflowedStack } from "../diagnostics.js";
import { aliasesOverLimit, MAX_ALIAS_GROWTH } from "../yaml-aliases.js";
import { locateInJson } from "../json-locate.js";
import { parseJson, parseYamlSource, type NodePath, type YamlSource } from "../yaml-source.js";
import { refParser, refusedAsInternal } from "./ref-parser.js";
import { filePath, guardedFileResolver, localPath, readSpecFile, resolverAsRead, UnreadableFile, type Refusal } from "./files.js";
import { MAX_NESTING, MAX_REF_CHAIN, overlongRefChain, refSites, type RefSite, type RefWalk } from "./refs.js";
import { decodePointer, escapePointer, isJsonObject, type JsonObject } from "./schema.js";
import { TOO_DEEP_HELP } from "./too-deep.js";
import { writtenPlace } from "./written-place.js";

export interface LoadedSpec {
  /** The spec as the user names it, for messages. */
  file: string;
  /** Bundled: external files inlined, internal `$ref`s kept, so circular schemas stay finite. */
  document: JsonObject;
  /** Where a JSON pointer of the document is declared; parses the text only when first asked. */
  locate(pointer: string): SourceLocation;
  /** Absolute paths of the spec and every local file its `$ref`s pulled in; set by loadSpec. */
  files?: readonly string[];
}

export interface LoadSpecOptions {
  /** Fetch `$ref`s that point at http(s) URLs. Off by default: generate never touches the network. */
  allowRemoteRefs?: boolean;
  /** Read `$ref`d files outside the spec's folder. Off by default: a spec cannot pull in `~/.npmrc`. */
  allowOutsideRefs?: boolean;
}

/** YAML anchors look like `&name` after a space or flow indicator; a text without one has no aliases to count. */
const mayHaveAnchors = (text: string) => /(^|[\s,[{])&[^\s,[\]{}]/.test(text);

/** Reads and bundles an OpenAPI 3.x document, turning every failure into a located diagnostic. */
export async function loadSpec(absolutePath: string, file: string, options: LoadSpecOptions = {}): Promise<LoadedSpec> {
  const fail = (diagnostic: Omit<Diagnostic, "severity">): never => {
    throw new DiagnosticError([{ ...diagnostic, severity: "error" }]);
  };
  const text = await readSpecFile(absolutePath).catch((error: unknown) => {
    if (!(error instanceof UnreadableFile)) throw error;
    return fail({
      code: "PRJ003",
      message: `cannot read the spec: ${error.message}`,
      help: "`spec:` is resolved against the folder of the annotation file",
      location: { file },
    });
  });
  const notAnObject = () =>
    fail({
      code: "PRJ004",
      message: "the spec is empty or not an object",
      help: "point `spec:` at an OpenAPI 3.0 or 3.1 document",
      location: { file, line: 1, column: 1 },
    });
  if (text.trim() === "") notAnObject();
  const folder = dirname(absolutePath);
  /** How messages name a file the spec pulls in: beside the spec's own name. */
  const display = (path: string) =>
    path === absolutePath ? file : posix.normalize(posix.join(posix.dirname(file), relative(folder, path).split(sep).join("/")));
  const texts = new Map<string, string>([[absolutePath, text]]);
  const sources = new Map<string, YamlSource>();
  const positionsOf = (path: string) => {
    if (!sources.has(path)) sources.set(path, parseYamlSource(texts.get(path) ?? "", display(path)));
    return sources.get(path)!;
  };
  /** A message of the parser's with each file the loader read named as messages name it, not by its absolute path. */
  const shown = (message: string) => {
    let named = message;
    for (const path of [...texts.keys()].sort((a, b) => b.length - a.length)) {
      const url = pathToFileURL(path);
      for (const spelling of new Set([url.href, url.pathname, path])) named = named.replaceAll(spelling, display(path));
    }
    return named;
  };
  // A JSON spec, checked above to be valid JSON, is located by a scan rather than a YAML parse with positions.
  const json = absolutePath.toLowerCase().endsWith(".json");
  const locateInSpec = (path: NodePath, part: "key" | "value" = "value"): SourceLocation =>
    json ? locateInJson(text, file, path, part) : positionsOf(absolutePath).locate(path, part);
  /** Where a key is written in a file the loader read (an absolute path); the spec alone for any other. */
  const locateKeyIn = (path: string | undefined, at: NodePath): SourceLocation => {
    if (path === absolutePath) return locateInSpec(at, "key");
    return path !== undefined && texts.has(path) ? positionsOf(path).locate(at, "key") : { file };
  };
  let entryJson: { value: unknown } | undefined;
  /**
   * Where a path of the bundled document is written: in the file a `$ref` on the way leads to, not at
   * the `$ref`. A spec of one file is located as its text reads; the JSON of a JSON spec is parsed
   * again only when a place in another file is first asked for, rather than kept.
   */
  const locateWritten = (bundled: JsonObject, path: string[]): SourceLocation => {
    if (texts.size === 1) return locateInSpec(path, "key");
    const value = valueAt(bundled, path);
    const place = writtenPlace(
      {
        has: (path) => texts.has(path),
        nodeAt: (path, at) => {
          if (path !== absolutePath || !json) return positionsOf(path).nodeAt(at);
          entryJson ??= { value: JSON.parse(text.replace(/^\uFEFF/, "")) as unknown };
          return valueAt(entryJson.value, at);
        },
      },
      absolutePath,
      path,
      value !== undefined && !isRef(value),
    );
    if (place.followed === 0) return locateInSpec(path, "key");
    // The pointer too names the place in the file that writes it, beside that file's line.
    const pointer = place.path.map((segment) => `/${escapePointer(String(segment))}`).join("");
    return { ...locateKeyIn(place.file, place.path), pointer };
  };
  let parsedJson: unknown;
  if (json) {
    // The YAML parser would accept bad JSON, trailing commas included.
    const parsed = parseJson(text.replace(/^\uFEFF/, ""));
    if ("value" in parsed) parsedJson = parsed.value;
    else
      fail({
        code: "PRJ003",
        message: `spec JSON syntax: ${parsed.error.message}`,
        help: "fix the JSON at this position",
        location: { file, line: parsed.error.line, column: parsed.error.column },
      });
  }

  const refusals: Refusal[] = [];
  const fileResolver = guardedFileResolver({
    spec: { path: absolutePath, text },
    realFolder: await realpath(folder),
    allowOutside: options.allowOutsideRefs === true,
    read: (path, read) => texts.set(path, read),
    refused: (refusal) => refusals.push(refusal),
  });
  /** The first `$ref`, in the order the documents were read, whose target is this file. */
  const refLeadingTo = (documents: Record<string, unknown>, path: string) =>
    refSites(documents).sites.find((site) => {
      const target = new URL(site.target.href.replace(/#.*$/s, ""));
      if (target.protocol === "file:" ? filePath(target) === path : target.href === path) return true;
      // The library resolves a few `$ref`s otherwise (`file:../x.yaml`, against a path, names `/x.yaml`),
      // and what it asked for is what was refused.
      try {
        return localPath(resolvedAsTheLibraryDoes(site.document, site.ref)) === path;
      } catch {
        return false;
      }
    });
  const siteLocation = (site: RefSite | undefined): SourceLocation => {
    if (!site) return { file };
    const path = /^[a-z][a-z0-9+.-]+:\/\//i.test(site.document) ? undefined : resolve(site.document);
    return locateKeyIn(path, [...site.path(), "$ref"]);
  };

  /**
   * A failure the parser or bundler reports in words: a dangling or remote `$ref`, located where it is
   * written. `documents`: those the parser read, to find a remote `$ref` in a file other than the spec.
   */
  const cannotLoad = (message: string, documents: Record<string, unknown>): never => {
    const pointer = /\$ref pointer "([^"]+)"/.exec(message)?.[1];
    const at = pointer ? refLocation(text, file, pointer) : { file };
    const downloading = /^Error downloading (\S+): /.exec(message);
    const remote = pointer && /^https?:/i.test(pointer) ? pointer : downloading?.[1];
    if (remote !== undefined) {
      const location = at.line === undefined ? siteLocation(refLeadingTo(documents, remote)) : at;
      if (!options.allowRemoteRefs)
        fail({
          code: "PRJ005",
          message: `remote $ref ${remote} refused`,
          help: "download the referenced document next to the spec and point $ref at the file, or pass --allow-remote-refs",
          location,
        });
      // With remote documents allowed, the parser finds no resolver for a URL only where its http resolver declines it.
      const internal = downloading === null && refusedAsInternal(remote);
      fail({
        code: "PRJ003",
        message: `cannot read the remote document ${remote}: ${
          internal
            ? "json-schema-ref-parser, which reads the $refs, refuses loopback and internal-network addresses"
            : message.split("\n")[0]!.slice(downloading?.[0].length ?? 0)
        }`,
        help: internal
          ? "it does so by design, --allow-remote-refs or not: download the document next to the spec and point the $ref at the file"
          : "download the document next to the spec and point the $ref at the file",
        location,
      });
    }
    const tooDeep = overflowedStack(message);
    return fail({
      code: "PRJ003",
      message: tooDeep
        ? "cannot load the spec: it nests too deeply for its $refs to be followed"
        : `cannot load the spec: ${message.split("\n")[0]!.replace(/ \(.*\)$/, "")}`,
      help: tooDeep
        ? TOO_DEEP_HELP
        : pointer
          ? `the $ref ${pointer} points at nothing; fix the path or add the target`
          : "check that every $ref points at a file or a path that exists",
      location: at,
    });
  };

  const parser = new (refParser())();
  /** The parser's options, its resolvers' changed by `changes`. */
  const parserOptions = (changes: object = {}) =>
    ({
      resolve: { external: true, file: fileResolver, http: options.allowRemoteRefs ? {} : false, ...changes },
    }) as unknown as SwaggerParser.Options;
  /** Refuses a spec nested past MAX_NESTING, where it first does, before any stage recurses into it. */
  const refuseTooDeep = ({ tooDeep }: RefWalk) => {
    if (!tooDeep) return;
    fail({
      code: "PRJ003",
      message: `cannot load the spec: it nests more than ${MAX_NESTING} levels deep`,
      help: TOO_DEEP_HELP,
      location: locateKeyIn(resolve(tooDeep.document), tooDeep.path),
    });
  };
  const ownWalk = isJsonObject(parsedJson) ? refSites({ [absolutePath]: parsedJson }) : undefined;
  if (ownWalk) refuseTooDeep(ownWalk);
  try {
    // A JSON document already parsed above, whose every `$ref` stays inside it, is handed to the parser
    // as it is, with no other file to look for.
    if (ownWalk?.sites.every((site) => site.ref.startsWith("#")))
      await parser.resolve(absolutePath, parsedJson as never, parserOptions({ external: false }));
    else await parser.resolve(absolutePath, parserOptions());
  } catch (error) {
    const documents = parser.$refs.values() as Record<string, unknown>;
    const refusal = refusals[0];
    if (refusal) {
      const site = refLeadingTo(documents, refusal.path);
      if (refusal.outside)
        fail({
          code: "PRJ055",
          message: `$ref ${site?.ref ?? refusal.path} leads outside the spec's folder; it was not read`,
          help: "move the file into the spec's folder (symlinks are followed to where they lead), or pass --allow-outside-refs",
          location: siteLocation(site),
        });
      fail({
        code: "PRJ003",
        message: `cannot read ${display(refusal.path)}: ${refusal.reason}`,
        help: "a $ref must lead to a regular file",
        location: siteLocation(site),
      });
    }
    const message = shown(String((error as Error).message ?? error));
    // Read again with positions, a spec that deep overflows the YAML parser too, which would blame a place in it.
    if (overflowedStack(message)) cannotLoad(message, documents);
    // The parser reads YAML with js-yaml, which stops at its own depth, naming the line and column.
    const yamlDepth = /^Error parsing (.+?): nesting exceeded maxDepth \((\d+)\) \((\d+):(\d+)\)/.exec(message);
    if (yamlDepth)
      fail({
        code: "PRJ003",
        message: `cannot load the spec: it nests more than ${yamlDepth[2]} levels deep, the most the YAML reader of json-schema-ref-parser reads`,
        help: TOO_DEEP_HELP,
        location: { file: yamlDepth[1]!, line: Number(yamlDepth[3]), column: Number(yamlDepth[4]) },
      });
    // The spec first; where the parser could not parse a file, then each file its $refs pulled in, in
    // the order they were read.
    const suspects = /^Error parsing /.test(message) ? [...texts.keys()] : [absolutePath];
    for (const path of suspects) {
      const syntax = positionsOf(path).errors[0];
      if (!syntax) continue;
      // The YAML reader recurses as the text nests: past about a thousand levels it runs out of stack.
      const tooDeep = overflowedStack(syntax.message);
      fail({
        code: "PRJ003",
        message: tooDeep ? `cannot load the spec: it nests more than the YAML reader can follow` : `spec syntax: ${syntax.message}`,
        help: tooDeep ? TOO_DEEP_HELP : "fix the YAML/JSON at this position",
        location: { file: display(path), line: syntax.line, column: syntax.column },
      });
    }
    for (const path of suspects) {
      const alias = positionsOf(path)
        .aliases()
        .find((a) => a.problem !== undefined);
      if (!alias) continue;
      fail({
        code: "PRJ003",
        message: `spec syntax: YAML alias *${alias.name} ${alias.problem === "undefined" ? "names no anchor before it" : "stands inside the node it names"}`,
        help: `define \`&${alias.name}\` on a node above this line, outside it, or write the value out`,
        location: alias.location,
      });
    }
    if (!isJsonObject(positionsOf(absolutePath).document.toJS({ maxAliasCount: -1 }))) notAnObject();
    cannotLoad(message, documents);
  }
  const documents = parser.$refs.values() as Record<string, unknown>;
  for (const [key, value] of Object.entries(documents)) {
    const path = resolve(key);
    const source = texts.get(path);
    if (source === undefined || !mayHaveAnchors(source) || !aliasesOverLimit(value)) continue;
    fail({
      code: "PRJ056",
      message: `YAML aliases expand ${display(path)} by more than ${MAX_ALIAS_GROWTH.toLocaleString("en-US")} values`,
      help: "write the repeated blocks out, or use fewer levels of aliases inside anchors",
      location: positionsOf(path).aliases()[0]?.location ?? { file: display(path) },
    });
  }
  // Where the parser holds only the document walked above, as it was given, its `$ref`s are those already found.
  const walked = ownWalk && Object.keys(documents).length === 1 && documents[absolutePath] === parsedJson ? ownWalk : refSites(documents);
  refuseTooDeep(walked);
  const overlong = overlongRefChain(documents, walked.sites);
  if (overlong)
    fail({
      code: "PRJ057",
      message: `$ref ${overlong.ref} leads through more than ${MAX_REF_CHAIN} $refs before it reaches a value`,
      help: "point the $ref at the schema the chain ends at",
      location: siteLocation(overlong),
    });
  let document: unknown = parser.schema;
  const straight = refsPointStraight(document, walked.sites);
  try {
    // Bundling changes nothing in a spec whose every $ref already names where it leads. Otherwise the
    // library bundles the document resolved above, resolving it again: each file it pulls in is
    // given as read above, and checked since.
    if (!straight) {
      const parsed = new Map(Object.entries(parser.$refs.values()).map(([key, value]) => [resolve(key), value]));
      const asRead = resolverAsRead(fileResolver, parsed, texts);
      document = await parser.bundle(absolutePath, parser.schema as never, parserOptions({ file: asRead }));
    }
  } catch (error) {
    cannotLoad(shown(String((error as Error).message ?? error)), parser.$refs.values() as Record<string, unknown>);
  }
  if (!isJsonObject(document)) return notAnObject();
  if (document["swagger"] !== undefined)
    fail({
      code: "PRJ004",
      message: `Swagger ${String(document["swagger"])} is not supported`,
      help: "convert it first: `npx swagger2openapi spec.yaml -o spec.openapi.yaml`",
      location: locateInSpec(["swagger"], "key"),
    });
  const version = document["openapi"];
  if (typeof version !== "string" || !/^3\.[01]\.\d+$/.test(version))
    fail({
      code: "PRJ004",
      message: `not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version ?? null)})`,
      help: "the document needs `openapi: 3.0.x` or `openapi: 3.1.x` at the top",
      location: version === undefined ? { file, line: 1, column: 1 } : locateInSpec(["openapi"], "key"),
    });
  if (document["paths"] !== undefined && !isJsonObject(document["paths"]))
    fail({
      code: "PRJ004",
      message: "the spec's `paths` is not a mapping",
      help: "projector reads the responses of the spec's operations",
      location: locateInSpec(["paths"], "key"),
    });
  // A document whose `$ref`s point straight was not bundled, and has no malformed one: each starts with `#/`.
  const fault = straight ? undefined : findBundledFault(document);
  if (fault !== undefined && "containsItself" in fault)
    fail({
      code: "PRJ003",
      message: `cannot load the spec: its $refs make it contain itself at ${fault.containsItself.map((key) => `/${escapePointer(key)}`).join("")}`,
      help: "a $ref to a whole file there leads back into the file that holds it; point it at a component (`other.yaml#/components/schemas/X`) instead",
      // The path runs through what bundling inlined; the spec's own text holds it up to the $ref that did.
      location: locateInSpec(fault.containsItself, "key"),
    });
  if (fault !== undefined && "malformedRef" in fault)
    fail({
      code: "PRJ007",
      message: `malformed $ref ${JSON.stringify(fault.malformedRef)}`,
      help: 'a $ref inside the document starts with "#/", e.g. "#/components/schemas/Task"',
      location: refLocation(text, file, fault.malformedRef),
    });
  const bundled = document;
  return {
    file,
    document,
    locate: (pointer) => ({ pointer, ...locateWritten(bundled, decodePointer(pointer)) }),
    // The parser gives POSIX paths on every platform; the watcher compares them with native ones.
    files: parser.$refs.paths("file").map((file) => resolve(file)),
  };
}

/**
 * Where json-schema-ref-parser looks for a `$ref` written in `document`: resolved as a URL against the
 * document's path on a stand-in host, so that `file:../x.yaml` names `/x.yaml` from the root of the
 * disk, as the library asks its resolver for it.
 */
function resolvedAsTheLibraryDoes(document: string, ref: string): string {
  const standIn = "https://stand-in.invalid";
  const url = new URL(ref.replaceAll("\\", "/"), new URL(document.replaceAll("\\", "/"), standIn));
  url.hash = "";
  return url.origin === standIn ? url.pathname : url.href;
}

/** The first `$ref` key in the text whose value names this target, as file:line:col. */
function refLocation(text: string, file: string, target: string): SourceLocation {
  const lines = text.split("\n");
  const wanted = target.toLowerCase().replace(/^https?:/, "");
  const key = /["']?\$ref["']?\s*:/;
  for (const [index, line] of lines.entries()) {
    const match = key.exec(line);
    if (!match) continue;
    // The value may sit on the next line, after a folded or literal block indicator.
    const value = line.slice(match.index) + (/[>|][+-]?\s*$/.test(line) ? ` ${lines[index + 1] ?? ""}` : "");
    if (value.toLowerCase().includes(wanted)) return { file, line: index + 1, column: match.index + (line[match.index] === "$" ? 1 : 2) };
  }
  return { file };
}

/** The value at a path of a parsed document, a list's items named by numbers or their digits; undefined where there is none. */
function valueAt(root: unknown, path: NodePath): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(String(segment)) ? node[Number(segment)] : undefined;
    else if (isJsonObject(node) && Object.hasOwn(node, String(segment))) node = node[String(segment)];
    else return undefined;
  }
  return node;
}

const isRef = (value: unknown): value is { $ref: string } =>
  isJsonObject(value) && typeof value["$ref"] === "string" && value["$ref"] !== "";

/**
 * True when every `$ref` is a plain JSON pointer into this document whose target exists and is no
 * `$ref` itself: bundling rewrites each `$ref` to the URL-normalized place it finally leads, so for
 * such a document it is a no-op. Anything less plain is left to the bundler.
 */
function refsPointStraight(document: unknown, sites: readonly RefSite[]): boolean {
  for (const ref of new Set(sites.map((site) => site.ref))) {
    if (!ref.startsWith("#/") || /[%\\]/.test(ref) || new URL(ref, "file:///").hash !== ref) return false;
    let target: unknown = document;
    for (const token of decodePointer(ref.slice(1))) {
      if (typeof target !== "object" || target === null || isRef(target) || !Object.hasOwn(target, token)) return false;
      target = (target as Record<string, unknown>)[token];
    }
    if (target === null || isRef(target)) return false;
  }
  return true;
}

/** What a bundled document holds that no later step can read: a malformed `$ref`, or itself. */
type BundledFault = { malformedRef: string } | { containsItself: string[] };

/**
 * The first internal `$ref` that does not start with `#/` (which resolves to nothing useful), or
 * the path at which the document contains itself: bundling inlines a `$ref` to a whole file, and
 * a file whose `$ref` leads back into the one holding it becomes a value inside itself, which every
 * later walk would follow forever. Objects shared by YAML aliases are walked once.
 */
function findBundledFault(root: JsonObject): BundledFault | undefined {
  const onPath = new Set<object>();
  const walked = new Set<object>();
  // Each frame: a value on the path from the root, the key it stands under, and its children left to
  // walk, the last first.
  const frames: { node: object; key: string; children: [string, object][] }[] = [];
  const enter = (node: object, key: string): BundledFault | undefined => {
    if (onPath.has(node)) return { containsItself: [...frames.slice(1).map((frame) => frame.key), key] };
    if (walked.has(node)) return undefined;
    walked.add(node);
    onPath.add(node);
    const ref = Array.isArray(node) ? undefined : (node as JsonObject)["$ref"];
    if (typeof ref === "string" && ref.startsWith("#") && ref !== "#" && !ref.startsWith("#/")) return { malformedRef: ref };
    const children = Object.entries(node).filter((entry): entry is [string, object] => typeof entry[1] === "object" && entry[1] !== null);
    frames.push({ node, key, children });
    return undefined;
  };
  let found = enter(root, "");
  while (found === undefined && frames.length > 0) {
    const frame = frames.at(-1)!;
    const next = frame.children.pop();
    if (next === undefined) {
      onPath.delete(frame.node);
      frames.pop();
    } else found = enter(next[1], next[0]);
  }
  return found;
}
