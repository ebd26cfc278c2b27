import { createHash } from "node:crypto";

/** A short, stable tag of a whole name, for names that cannot be written out in full. */
const nameHash = (name: string): string => createHash("sha256").update(name).digest("hex").slice(0, 8);

/**
 * `search_tickets`, `team-memberships`, `getUser` to `SearchTickets`, `TeamMemberships`, `GetUser`.
 * Accents are dropped (`créé` gives `Cree`); a name with letters that have no ASCII form (`任务`)
 * also gets a hash of the whole name, so two such names do not both become `Unnamed`.
 */
export function pascalCase(name: string): string {
  let known = pascalNames.get(name);
  if (known === undefined) {
    if (pascalNames.size >= MAX_REMEMBERED_NAMES) pascalNames.clear();
    known = toPascalCase(name);
    pascalNames.set(name, known);
  }
  return known;
}

/** The emitters ask for the same few thousand names over and over (a spec's tools, resources and fields); each is worked out once. */
const pascalNames = new Map<string, string>();
const MAX_REMEMBERED_NAMES = 100_000;

function toPascalCase(name: string): string {
  const ascii = name.normalize("NFKD").replace(/\p{M}/gu, "");
  const words = ascii
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  const base = joined === "" ? "Unnamed" : /^[0-9]/.test(joined) ? `_${joined}` : joined;
  return /[^\u0000-\u007f]/.test(ascii) ? `${base}_${nameHash(name)}` : base;
}

export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0] === "_" ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** Output key for a list of records: `ticket` to `tickets`, `policy` to `policies`. */
export function plural(name: string): string {
  if (/s$/.test(name)) return name;
  if (/(x|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/** Plurals no suffix rule undoes, by their singular's last word. */
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = {
  people: "person",
  children: "child",
  men: "man",
  women: "woman",
  indices: "index",
  vertices: "vertex",
  matrices: "matrix",
  aliases: "alias",
  canvases: "canvas",
  biases: "bias",
  movies: "movie",
  cookies: "cookie",
};

/** Last words the same in the singular and the plural, or with no singular an API names records by. */
const SAME_IN_THE_PLURAL = /(^|_)(data|metadata|media|news|series|species|status|alias|bias|canvas|gas|sms|dns|os)$/;

/**
 * `tickets` to `ticket`, `policies` to `policy`, `boxes` to `box`, `cases` to `case`, `statuses` to
 * `status`, `analyses` to `analysis`, `people` to `person`: the last word's singular, near enough.
 */
export const singular = (name: string): string => {
  const irregular = /(^|_)([a-z]+)$/.exec(name);
  const known = irregular ? IRREGULAR_PLURALS[irregular[2]!] : undefined;
  if (known !== undefined) return name.slice(0, name.length - irregular![2]!.length) + known;
  if (SAME_IN_THE_PLURAL.test(name)) return name;
  const [ending, singularEnding] = SINGULAR_ENDINGS.find(([ending]) => ending.test(name)) ?? [/$/, ""];
  return name.replace(ending, singularEnding);
};

/** Plural endings and their singulars, the first that matches taken. */
const SINGULAR_ENDINGS: readonly [RegExp, string][] = [
  [/ies$/, "y"],
  [/yses$/, "ysis"],
  [/(ss|x|ch|sh|zz)es$/, "$1"],
  [/([^aeiou]u)ses$/, "$1s"],
  [/([^isu])s$/, "$1"],
];

/** The most characters Anthropic's and OpenAI's function-calling APIs take in a tool's name. */
export const LONGEST_TOOL_NAME = 64;

/** Plain JavaScript identifiers can be written as `a.b`; anything else needs `a["b-c"]`. */
export const isIdentifier = (name: string): boolean => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);

/** Output keys that would change an object's prototype or shadow its methods when assigned. */
export const RESERVED_KEYS = new Set(["__proto__"]);

/**
 * The longest file stem a name becomes. Filesystems refuse names over 255 bytes, and whole paths
 * on Windows stop at 260 characters, so a longer stem keeps its start and a hash of the whole name.
 */
export const MAX_FILE_STEM = 80;

/** Names Windows reserves for devices, whatever the extension: a tool named `con` cannot be `con.ts`. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * A file name for a generated module: `search_tickets` gives `search-tickets`. A stem too long for
 * a filesystem, or one Windows reserves, is cut and suffixed with a hash of the whole name, so it
 * stays distinct from every other name's.
 */
export function fileStem(name: string): string {
  const stem = pascalCase(name)
    .replace(/^_/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase();
  if (stem.length <= MAX_FILE_STEM && !WINDOWS_DEVICE.test(stem)) return stem;
  const hash = nameHash(name);
  return `${stem.slice(0, MAX_FILE_STEM - hash.length - 1).replace(/-+$/, "")}-${hash}`;
}

/** What one annotated resource or tool adds to the output folder: its module, and the names it declares. */
export interface GeneratedModule {
  /** Path relative to the output folder, without the extension. */
  path: string;
  /** Values and types `index.ts` re-exports, in the order it lists them. */
  values: string[];
  types: string[];
}

/** `ticketResultSchema`: the constant holding a resource's result schema. */
export const resultSchemaName = (typeName: string) => `${typeName[0]!.toLowerCase()}${typeName.slice(1)}ResultSchema`;

export function resourceModule(name: string): GeneratedModule {
  const T = pascalCase(name);
  return {
    path: `resources/${fileStem(name)}`,
    values: [`project${T}`, resultSchemaName(T)],
    types: [`${T}Lookups`, `${T}Record`, `${T}Result`],
  };
}

export function toolModule(name: string): GeneratedModule {
  const T = pascalCase(name);
  return {
    path: `tools/${fileStem(name)}`,
    values: [`${camelCase(name)}OutputSchema`, `project${T}`],
    types: [`${T}Resolvers`, `${T}Response`, `${T}Result`],
  };
}

/** The words of a name however it is written, lower case: `APIError`, `api_error` and `apiError` are `api`, `error`. */
export const nameWords = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** A name without case or separators, as its spellings compare: `nextPageToken` and `next_page_token` are `nextpagetoken`. */
export const squeezed = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");
