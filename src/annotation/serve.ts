import type { CheckKeys, FromEnvironment, Problem, ServeAnnotation, ServeAuth, YamlPath } from "./types.js";
import { HEADER_NAME, isObject } from "./next-page.js";

const SERVE_KEYS = ["name", "base_url", "auth"];
const AUTH_SCHEMES = ["bearer", "api_key", "basic"] as const;
/** A variable name as a shell takes it: a letter or underscore, then letters, digits and underscores. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NO_SECRETS = "a secret is never written in the annotation file: it names the environment variable that holds it";

/** An absolute http(s) URL, the only base URL `projector serve` sends requests to. */
export const isHttpUrl = (text: string): boolean => URL.canParse(text) && ["http:", "https:"].includes(new URL(text).protocol);

/** A URL that carries a user name or password, which are secrets and belong in `serve.auth`. */
export function holdsCredentials(text: string): boolean {
  const { username, password } = new URL(text);
  return username !== "" || password !== "";
}

/** "query" or "fragment" when the URL has one, which a base URL cannot: requests' paths are written after it. */
export function queryOrFragment(text: string): "query" | "fragment" | undefined {
  if (text.includes("?")) return "query";
  if (text.includes("#")) return "fragment";
  return undefined;
}

/**
 * Header names serve refuses for the API key: those the request itself sets (a key there would
 * change where or how it is sent), and object keys that are not plain names.
 */
export const UNSENDABLE_HEADERS: readonly string[] = [
  "host",
  "content-length",
  "content-type",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "proxy-connection",
  "__proto__",
  "constructor",
  "prototype",
];

/** Reads the `serve:` section, reporting every shape problem; undefined when it cannot be read. */
export function parseServe(value: unknown, problem: Problem, checkKeys: CheckKeys): ServeAnnotation | undefined {
  const path = ["serve"];
  if (!isObject(value)) {
    problem(path, "serve must be a mapping", "write `serve: { base_url: { env: API_URL }, auth: { bearer: { env: API_TOKEN } } }`");
    return undefined;
  }
  checkKeys(value, path, SERVE_KEYS, "serve");
  const serve: ServeAnnotation = { path };
  const name = value["name"];
  if (typeof name === "string" && name.trim() !== "") serve.name = name;
  else if (name !== undefined) problem([...path, "name"], "serve.name must be a non-empty string", "write `name: support-desk`");
  if (value["base_url"] !== undefined) {
    const baseUrl = parseBaseUrl(value["base_url"], [...path, "base_url"], problem, checkKeys);
    if (baseUrl) serve.baseUrl = baseUrl;
  }
  if (value["auth"] !== undefined) {
    const auth = parseAuth(value["auth"], [...path, "auth"], problem, checkKeys);
    if (auth) serve.auth = auth;
  }
  return serve;
}

function parseBaseUrl(value: unknown, path: YamlPath, problem: Problem, checkKeys: CheckKeys): ServeAnnotation["baseUrl"] {
  const help = "write `base_url: https://api.example.com/v1`, or `base_url: { env: API_URL, default: https://api.example.com/v1 }`";
  const url = (text: unknown, at: YamlPath): string | undefined => {
    if (typeof text === "string" && isHttpUrl(text) && holdsCredentials(text)) {
      problem(
        at,
        `serve.base_url holds a user name or password; ${NO_SECRETS}`,
        "write them in `auth: { basic: ... }`, each from a variable",
      );
      return undefined;
    }
    if (typeof text === "string" && isHttpUrl(text) && queryOrFragment(text)) {
      problem(
        at,
        `serve.base_url holds a ${queryOrFragment(text)}, which a base URL cannot carry: each request's path is written after it`,
        help,
      );
      return undefined;
    }
    if (typeof text === "string" && isHttpUrl(text)) return text;
    problem(at, `serve.base_url must be an absolute http(s) URL, not ${JSON.stringify(text)}`, help);
    return undefined;
  };
  if (typeof value === "string") {
    const written = url(value, path);
    return written === undefined ? undefined : { url: written, path };
  }
  if (!isObject(value)) {
    problem(path, "serve.base_url is a URL or `{ env: NAME, default: URL }`", help);
    return undefined;
  }
  checkKeys(value, path, ["env", "default"], "serve.base_url");
  const env = variable(value["env"], [...path, "env"], "serve.base_url.env", problem);
  if (value["env"] === undefined) problem(path, "serve.base_url as a mapping needs `env`", help);
  const fallback = value["default"] === undefined ? undefined : url(value["default"], [...path, "default"]);
  if (env === undefined) return undefined;
  return { env, ...(fallback !== undefined ? { url: fallback } : {}), path };
}

function parseAuth(value: unknown, path: YamlPath, problem: Problem, checkKeys: CheckKeys): ServeAuth | undefined {
  const help =
    "write `auth: { bearer: { env: API_TOKEN } }`, `{ api_key: { env: API_KEY, header: X-API-Key } }` or `{ basic: { username: { env: API_USER }, password: { env: API_PASSWORD } } }`";
  if (!isObject(value)) {
    problem(path, "serve.auth must be a mapping with one of bearer, api_key, basic", help);
    return undefined;
  }
  checkKeys(value, path, AUTH_SCHEMES, "serve.auth");
  const schemes = AUTH_SCHEMES.filter((scheme) => value[scheme] !== undefined);
  if (schemes.length !== 1) {
    problem(path, `serve.auth takes one scheme, not ${schemes.length === 0 ? "none" : schemes.join(" and ")}`, help);
    return undefined;
  }
  const scheme = schemes[0]!;
  const at = [...path, scheme];
  const entry = value[scheme];
  const secret = (object: unknown, where: YamlPath, what: string): FromEnvironment | undefined => {
    if (!isObject(object)) {
      problem(where, `serve.auth: ${what} must be \`{ env: NAME }\`; ${NO_SECRETS}`, help);
      return undefined;
    }
    checkKeys(object, where, scheme === "api_key" && where === at ? ["env", "header"] : ["env"], what);
    if (object["env"] === undefined) problem(where, `serve.auth: ${what} needs \`env\`, the variable that holds it`, help);
    return variable(object["env"], [...where, "env"], `${what}.env`, problem);
  };
  if (scheme === "basic") {
    if (!isObject(entry)) {
      problem(at, "serve.auth.basic must be `{ username: { env: NAME }, password: { env: NAME } }`", help);
      return undefined;
    }
    checkKeys(entry, at, ["username", "password"], "serve.auth.basic");
    const username = secret(entry["username"], [...at, "username"], "the basic username");
    const password = secret(entry["password"], [...at, "password"], "the basic password");
    return username && password ? { scheme, username, password, path: at } : undefined;
  }
  if (scheme === "bearer") {
    const token = secret(entry, at, "the bearer token");
    return token ? { scheme, token, path: at } : undefined;
  }
  const key = secret(entry, at, "the API key");
  const header = isObject(entry) ? entry["header"] : undefined;
  if (
    header !== undefined &&
    (typeof header !== "string" || !HEADER_NAME.test(header) || UNSENDABLE_HEADERS.includes(header.toLowerCase()))
  ) {
    problem(
      [...at, "header"],
      `serve.auth.api_key.header must be a header name the request does not set itself, not ${JSON.stringify(header)}`,
      "write `header: X-API-Key`",
    );
    return undefined;
  }
  return key ? { scheme, key, ...(header !== undefined ? { header } : {}), path: at } : undefined;
}

function variable(value: unknown, path: YamlPath, what: string, problem: Problem): FromEnvironment | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && VARIABLE_NAME.test(value)) return { env: value, path };
  problem(
    path,
    `${what} must be an environment variable's name (letters, digits and _), not ${JSON.stringify(value)}`,
    "write `env: API_TOKEN`",
  );
  return undefined;
}
