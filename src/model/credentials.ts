// What says a value is a credential, which no result may carry to the model: a name that says so
// (`auth_token`, `clientSecret`, `api-key`, `password`), `format: password`, or an example that shows
// one, on a value that can hold one. A boolean never does, nor a count: `has_password`, `max_tokens`.

import { nameWords } from "../naming.js";
import { child, members, type SchemaAt, type SchemaReader } from "../openapi/schema.js";

/** Last words that name a credential whatever comes before them. */
const SECRET_WORDS = new Set([
  ...["password", "passwd", "pwd", "passphrase", "secret", "credential", "apikey", "jwt", "cookie"],
  ...["authorization", "bearer", "mnemonic", "otp", "privkey", "psk", "cred", "passcode", "pswd", "pw", "totp"],
  ...["cvv", "cvv2", "cvc", "pkcs12", "pfx", "keystore"],
  // Written as one word: `accesstoken`, `authkey`.
  ...["accesstoken", "authtoken", "refreshtoken", "apitoken", "authkey", "secretkey", "privatekey"],
]);
/** Last words that say how a credential is written, not what it is: `private_key_pem`, `api_key_value`. */
const WRITTEN_AS = new Set(["pem", "der", "base64", "b64", "value", "raw", "header", "data"]);
/**
 * Words before `key` that make it a credential: `api_key`, `private_key`, `signing_key`, an events
 * API's `routing_key` or `integration_key` (whoever holds it can send events); never `public_key`,
 * `sort_key` or `key` alone.
 */
const SECRET_KEYS = new Set([
  ...["api", "ssl", "tls", "wpa", "pem", "hmac", "certificate", "cert"],
  ...["priv", "private", "secret", "shared", "master", "app", "application", "client"],
  ...["routing", "integration", "webhook", "signing", "encryption", "access", "auth", "session", "license", "recovery"],
]);
/** Words before `token` that make it something else: a page's cursor (`next_page_token`) or a model's word (`stop_token`). */
const NOT_SECRET_TOKENS = new Set([
  ...["page", "next", "prev", "previous", "continuation", "pagination", "cursor", "sync", "resume", "start", "end", "first", "last"],
  ...["stop", "truncated", "special", "bos", "eos", "pad", "unk", "mask", "sep", "cls"],
]);

/** Words before `tokens` that count a model's words: `input_tokens`, `total_tokens`. */
const COUNTED_TOKENS = new Set([
  ...["input", "output", "prompt", "completion", "reasoning", "candidate", "cached"],
  ...["total", "max", "min", "used", "billed"],
]);

/** Formats that write a number as text (`format: uint64` on a `type: string`): a count, never a secret. */
const NUMBER_FORMATS = new Set(["int32", "int64", "uint32", "uint64", "integer", "float", "double", "decimal", "number"]);

/** Words that make a name a question about a credential (`has_password`, `allow_credentials`), not one. */
const ASKING = new Set(["is", "has", "have", "can", "allow", "allows", "require", "requires", "use", "uses", "store", "enable", "enabled"]);

/**
 * `authToken`, `auth-token` and `AUTH_TOKEN` as the words `auth`, `token`; the last one singular,
 * save `tokens`, which counts a model's words (`max_tokens`, `total_tokens`) far more often than it
 * holds credentials.
 */
function wordsOf(name: string, singular = true): string[] {
  const words = nameWords(name);
  const last = words.length - 1;
  if (singular && last >= 0 && words[last] !== "tokens") words[last] = words[last]!.replace(/([^s])s$/, "$1");
  return words;
}

/** How key material is encoded: a key written so (`tls_key_pem`) is the key itself, unless it is a public one. */
const KEY_MATERIAL = new Set(["pem", "der", "base64", "b64"]);
/** Words before `phrase` (or `words`) that make it one a wallet or an account is recovered with: `seed_phrase`, `recovery_words`. */
const SECRET_PHRASES = new Set(["seed", "recovery", "secret", "backup"]);
/** A password, written out or shortened. */
const PASSWORD = ["password", "passwd", "pwd"];
/** What a secret still is after hashing: `password_hash`, `secret_digest`. */
const HASHED = new Set([...PASSWORD, "secret"]);
/** Words of a second factor: its `mfa_seed`, its `totp_code`. */
const SECOND_FACTOR = ["mfa", "totp", "otp", "tfa", "2fa"];

/**
 * Last words that name a credential after one of the words beside them: `api_key`, `backup_codes`,
 * `seed_phrase`, `connection_string`, `basic_auth`, `password_hash`.
 */
const SECRET_AFTER = new Map<string, ReadonlySet<string>>([
  ["key", SECRET_KEYS],
  [
    "code",
    new Set([...SECOND_FACTOR, "backup", "recovery", "pin", "unlock", "verification", "activation", "auth", "authorization", "security"]),
  ],
  ["confirmation", new Set(PASSWORD)],
  ["assertion", new Set(["client"])],
  ["number", new Set(["pin"])],
  ["seed", new Set(SECOND_FACTOR)],
  ["phrase", SECRET_PHRASES],
  ["word", SECRET_PHRASES],
  ["string", new Set(["connection"])],
  ["auth", new Set(["basic"])],
  ["material", new Set(["key"])],
  ["answer", new Set(["security"])],
  ["hash", HASHED],
  ["digest", HASHED],
  ["salt", HASHED],
]);

/** Whether a name says the value is a credential or a secret, word for word. */
export function namedLikeCredential(name: string): boolean {
  const words = wordsOf(name);
  const material = KEY_MATERIAL.has(words.at(-1) ?? "");
  const written = words.length;
  while (words.length > 1 && WRITTEN_AS.has(words[words.length - 1]!)) words.pop();
  const last = words[words.length - 1];
  const before = words[words.length - 2];
  if (last === undefined || words.some((word) => ASKING.has(word))) return false;
  // `auth` alone may name a scheme; written out (`auth_header`, `auth_value`) it is the credential.
  if (last === "auth" && words.length < written) return true;
  // Written apart or together alike: `pass_phrase` is a `passphrase`, `api_key` an `apikey`.
  if (SECRET_WORDS.has(last) || (before !== undefined && SECRET_WORDS.has(before + last))) return true;
  // `tokens` names a list of them where it is text; counted words (`max_tokens`) are numbers, never taken.
  if (last === "tokens" && before !== undefined && COUNTED_TOKENS.has(before)) return false;
  if (last === "token" || last === "tokens") return before === undefined || !NOT_SECRET_TOKENS.has(before);
  if (words.includes("mnemonic")) return true;
  // Key material written out (`tls_key_pem`, `private_pem`), but a public key's.
  if (material && ["private", "priv", "key"].includes(last) && before !== "public") return true;
  return before !== undefined && (SECRET_AFTER.get(last)?.has(before) ?? false);
}

/**
 * Names of the part that holds a credential written out, inside a value named like one:
 * `api_keys[].value`, `secret.plaintext`, `signing_keys[].key`.
 */
const HOLDING = new Set(["value", "key", "raw", "plaintext", "material", "pem", "der", "base64", "b64"]);

/**
 * Examples that show a text holds a secret whatever it is named: a private key written out (a
 * database sink's `key`), a URL with a password in it (a database's connection `uri`), a JSON Web
 * Token, or a token in a service's own form (`sk_live_...`, `ghp_...`, `xoxb-...`).
 */
const SECRET_EXAMPLES: ReadonlyArray<readonly [RegExp, string]> = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/, "a private key"],
  [/^[a-z][a-z0-9+.:-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i, "a URL with a password in it"],
  [/(^|;)\s*(password|pwd)\s*=\s*[^;\s]/i, "a connection string with a password in it"],
  [/\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/, "a JSON Web Token"],
  [/^Bearer \S{8,}$/i, "an Authorization header's value"],
  [
    /^(?:(?:sk|rk)_(?:live|test)_|sk-(?:proj|ant|svcacct)-|whsec_|gh[pousr]_|github_pat_|glpat-|xox[abpr]-|xapp-|dop_v1_|doo_v1_|npm_|AIza|SG\.)[\w.-]{16,}$/,
    "a token in its service's own form",
  ],
];

/** Whether text is a Basic Authorization header's value: `Basic ` and a user and password in base64. */
function basicCredentials(text: string): boolean {
  const encoded = /^Basic ([A-Za-z0-9+/]{8,}={0,2})$/i.exec(text)?.[1];
  return encoded !== undefined && /^[^:\s]+:\S+$/.test(Buffer.from(encoded, "base64").toString("utf8"));
}

/** What the examples the spec gives for a text show it to hold, where that is a secret: `a private key`. */
export function secretExample(reader: SchemaReader, at: SchemaAt): string | undefined {
  const value = reader.unwrapNullable(at);
  const { schema } = value;
  const listed = (value: unknown) => (Array.isArray(value) ? value : []);
  // Its own examples, its `const` and `enum`, and, for a list, its items'.
  const list = reader.kind(value) === "array" ? reader.items(value) : undefined;
  const items = list ? reader.unwrapNullable(list) : undefined;
  const examples = [
    schema["example"],
    schema["default"],
    schema["const"],
    ...listed(schema["examples"]),
    ...listed(schema["enum"]),
    ...(items ? [items.schema["example"], ...listed(items.schema["examples"])] : []),
  ].flatMap((example) => (Array.isArray(example) ? example : [example]));
  for (const example of examples) {
    if (typeof example !== "string") continue;
    const text = example.trim();
    const shown = SECRET_EXAMPLES.find(([form]) => form.test(text));
    if (shown) return shown[1];
    if (basicCredentials(text)) return "an Authorization header's value";
  }
  return undefined;
}

/** Kinds of value that cannot hold a credential, whatever they are named. */
const NO_SECRET_KINDS = new Set(["boolean", "integer", "number"]);

/** Last words of the credentials a number can be: `password: 1234`, a `pin`, an `otp_code`. */
const NUMBER_SECRETS = new Set([...PASSWORD, "pw", "passcode", "pin", "otp", "totp", "cvv", "cvc", "code", "key", "token", "secret"]);

/**
 * Whether the value at `at`, named `name`, holds a credential: by its name, by `format: password`,
 * by its example, or as the part holding the credential of a value named like one (`parent`, where
 * it is a part).
 * A list of objects is records (Twilio's `signing_keys`: each a sid and a name), whose own members
 * say whether they hold one.
 */
export function isCredential(reader: SchemaReader, name: string, at: SchemaAt, parent?: string): boolean {
  const value = reader.unwrapNullable(at);
  const kind = reader.kind(value);
  if (value.schema["format"] === "password" || secretExample(reader, value) !== undefined) return true;
  // A number is a count or a flag (`max_tokens`, `secret_count`), unless it is named as the secret itself.
  if (kind === "integer" || kind === "number") {
    // Counted, never one: `pins`, `passwords`, `tokens`.
    const last = wordsOf(name, false).at(-1) ?? "";
    return NUMBER_SECRETS.has(last) && (last === "pin" || namedLikeCredential(name));
  }
  // A token whose members the spec declares is told by them: a model's `token: { text, logprob }`.
  // Any other object named like a credential is one, whatever its members say (`api_key: { value_enc }`).
  if (kind === "object" && ["token", "tokens"].includes(wordsOf(name).at(-1) ?? "") && reader.properties(value).length > 0) return false;
  const items = kind === "array" ? reader.items(value) : undefined;
  const item = items ? reader.unwrapNullable(items) : undefined;
  // Headers or an environment written as lines of text: `Authorization: Bearer ...`, `DATABASE_URL=...`.
  if (kind === "array" && secretLines(name) && (items === undefined || freeValues(reader, items))) return true;
  if (NO_SECRET_KINDS.has(kind ?? "") || (item && (NO_SECRET_KINDS.has(reader.kind(item) ?? "") || reader.objectLike(item)))) return false;
  if (NUMBER_FORMATS.has(String(value.schema["format"]))) return false;
  // A `pin` written as text is a PIN; anything else so named is pinned (Slack's `pins`, a map's).
  if (kind === "string" && wordsOf(name).at(-1) === "pin") return true;
  return namedLikeCredential(name) || holdsCredentialOf(name, parent);
}

/** Why a value is a credential, as init's comment beside its drop says it. */
export function credentialReason(reader: SchemaReader, name: string, at: SchemaAt, parent?: string): string {
  if (reader.unwrapNullable(at).schema["format"] === "password") return "declared `format: password`";
  const shown = secretExample(reader, at);
  if (shown !== undefined) return `its example in the spec is ${shown}`;
  if (parent !== undefined && holdsCredentialOf(name, parent) && !namedLikeCredential(name))
    return `the credential \`${parent}\` names, written out`;
  return "named like a credential";
}

/**
 * Whether a part named `name` holds the credential its parent's name says it is: `api_keys[].value`,
 * or a value of headers or an environment written as pairs: `custom_headers[].value`, `env[].value`.
 */
export const holdsCredentialOf = (name: string, parent: string | undefined): boolean =>
  parent !== undefined &&
  ((HOLDING.has(name.toLowerCase()) && namedLikeCredential(parent)) ||
    (["value", "values"].includes(name.toLowerCase()) && secretMap(parent)));

/** Whether a map's values may be any text, or lists of it: not objects whose members say what they are, not numbers or flags. */
function freeValues(reader: SchemaReader, values: SchemaAt): boolean {
  const value = reader.unwrapNullable(values);
  const kind = reader.kind(value);
  if (kind === "array") {
    const items = reader.items(value);
    return items === undefined || freeValues(reader, items);
  }
  return kind === undefined || kind === "string";
}

/**
 * The schemas of the values an object holds under no declared name, or only on a condition: a map's
 * (`additionalProperties`, `patternProperties`, `unevaluatedProperties`), and JSON Schema 2020-12's
 * `dependentSchemas`, `if`/`then`/`else` and a tuple's `prefixItems`.
 */
function mapValues(at: SchemaAt): SchemaAt[] {
  const each = (key: string) => {
    const group = child(at, key);
    return Object.keys(group?.schema ?? {}).flatMap((name) => child(group!, name) ?? []);
  };
  return [
    ...["additionalProperties", "unevaluatedProperties", "if", "then", "else", "contains", "unevaluatedItems"].flatMap(
      (key) => child(at, key) ?? [],
    ),
    ...["patternProperties", "dependentSchemas"].flatMap(each),
    ...members(at, "prefixItems"),
    // A branch's own conditions and maps (`allOf: [{ if, then }]`): its properties the reader merges already.
    ...["allOf", "anyOf", "oneOf"].flatMap((key) => members(at, key)),
  ];
}

/**
 * Names of maps whose values, under keys no one names, are credentials as often as not: request
 * `headers` (an `Authorization`), an `env` of a process or a build (a `DATABASE_URL`), `auth`.
 */
const SECRET_MAPS = new Set(["headers", "header", "env", "envs", "environment", "environments", "auth", "authentication"]);

/** Whether a map named `holder` holds credentials among its values, whatever they are: `headers`, `env_vars`, `auth`. */
const secretMap = (holder: string): boolean => {
  const words = wordsOf(holder, false);
  const last = words.at(-1) ?? "";
  // `labels_by_env` is keyed by environment, not one.
  if (words.includes("by")) return false;
  return SECRET_MAPS.has(last) || (["var", "vars", "variable", "variables"].includes(last) && words.some((w) => w.startsWith("env")));
};

/**
 * Whether a list of text named `name` holds lines with credentials: headers (`Authorization: ...`) or
 * environment variables (`DATABASE_URL=...`), never a list of environments' names (`environments`).
 */
const secretLines = (name: string): boolean => {
  const words = wordsOf(name, false);
  return ["headers", "header"].includes(words.at(-1) ?? "") || (secretMap(name) && /var/.test(words.at(-1) ?? ""));
};

const carriedByDocument = new WeakMap<object, Map<string, string | null>>();

/**
 * The first credential a value kept whole would carry, as a dotted path from `name`
 * (`sip.password`, `keys[].secret`), or undefined where it carries none. What each schema node
 * carries is found once per document, however many fields share it.
 */
export function carriedCredential(reader: SchemaReader, at: SchemaAt, name: string): string | undefined {
  const memo = carriedByDocument.get(reader.document) ?? new Map<string, string | null>();
  carriedByDocument.set(reader.document, memo);
  const onPath = new Set<string>();
  /**
   * The path below `node`, a value named `holder`, to a credential, or null; `settled` is false
   * where a cycle cut the walk short, so it is not remembered.
   */
  const walk = (node: SchemaAt, holder: string): { found: string | null; settled: boolean } => {
    const value = reader.unwrapNullable(node);
    // The holder's name decides what its parts are (`api_keys[].value`): it is part of the key.
    const key = `${value.pointer}\0${holder}`;
    const known = memo.get(key);
    if (known !== undefined) return { found: known, settled: true };
    if (onPath.has(key)) return { found: null, settled: false };
    onPath.add(key);
    let found: string | null = null;
    let settled = true;
    const below = (label: string, inner: SchemaAt, name: string) => {
      const result = walk(inner, name);
      settled &&= result.settled;
      if (result.found !== null) found = label + result.found;
    };
    if (reader.kind(value) === "array") {
      const items = reader.items(value);
      if (items) below("[]", items, holder);
    } else
      for (const p of reader.properties(value)) {
        if (isCredential(reader, p.name, p.at, holder)) found = `.${p.name}`;
        else below(`.${p.name}`, p.at, p.name);
        if (found !== null) break;
      }
    // Values under keys no one names (`{}`): `secrets: { db: "..." }`, `settings: { prod: { api_key } }`.
    for (const values of mapValues(value)) {
      if (found !== null) break;
      if (isCredential(reader, holder, values) || (secretMap(holder) && freeValues(reader, values))) found = "{}";
      else below("{}", values, holder);
    }
    // An object that declares nothing of what it holds, named as headers or an environment are.
    if (found === null && secretMap(holder) && reader.kind(value) === "object" && reader.properties(value).length === 0) found = "{}";
    onPath.delete(key);
    if (settled || found !== null) memo.set(key, found);
    return { found, settled: settled || found !== null };
  };
  const { found } = walk(at, name.split(".").at(-1)!);
  return found === null ? undefined : name + found;
}
