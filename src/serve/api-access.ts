import type { ServeAnnotation, ServeAuth } from "../annotation/types.js";
import { holdsCredentials, isHttpUrl, queryOrFragment, UNSENDABLE_HEADERS } from "../annotation/serve.js";
import { HEADER_NAME, isObject } from "../annotation/next-page.js";

/** How the served tools reach the API: its base URL and the headers every request carries. */
export interface ApiAccess {
  readonly baseUrl: string;
  /** Header values are secrets: never printed, never written into a message. */
  readonly headers: Readonly<Record<string, string>>;
  /** The secrets the headers carry, which serve masks in every text it hands out. */
  readonly secrets: readonly string[];
}

/** What start-up found wrong, one line each, naming the variable or the annotation's key; never a secret's value. */
export class AccessProblems extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("; "));
  }
}

type Environment = Readonly<Record<string, string | undefined>>;
type SpecDocument = { readonly [key: string]: unknown };

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** What a header value carries as it is: printable ASCII (fetch refuses others at every call). */
const HEADER_VALUE = /^[\u0020-\u007e]*$/;

const objectOf = (value: unknown) => (isObject(value) ? value : undefined);

/**
 * The base URL and auth headers `serve:` names, read from `env`, with the spec's single server URL
 * and single header apiKey scheme where the annotation leaves them out. Throws {@link AccessProblems}
 * listing every variable that is missing or unusable.
 */
export function apiAccess(serve: ServeAnnotation | undefined, spec: SpecDocument, env: Environment, file: string): ApiAccess {
  const problems: string[] = [];
  const baseUrl = baseUrlOf(serve, spec, env, file, problems);
  const secrets: string[] = [];
  const headers = serve?.auth ? authHeaders(serve.auth, spec, env, file, problems, secrets) : {};
  if (problems.length > 0 || baseUrl === undefined) throw new AccessProblems(problems);
  return { baseUrl: baseUrl.replace(/\/+$/, ""), headers, secrets };
}

function baseUrlOf(serve: ServeAnnotation | undefined, spec: SpecDocument, env: Environment, file: string, problems: string[]) {
  const written = serve?.baseUrl;
  if (written?.env) {
    const name = written.env.env;
    const value = env[name];
    if (value !== undefined && value !== "") {
      // The value is never quoted: a URL may hold a password.
      if (!isHttpUrl(value))
        problems.push(`${name} is not an absolute http(s) URL; serve.base_url in ${file} reads the API's base URL from it`);
      else if (holdsCredentials(value)) problems.push(`${name} holds a user name or password; give them through serve.auth in ${file}`);
      else if (queryOrFragment(value))
        problems.push(`${name} holds a ${queryOrFragment(value)}, which a base URL cannot carry: each request's path is written after it`);
      else return value;
      return undefined;
    }
    if (written.url !== undefined) return written.url;
    problems.push(`${name} is not set; serve.base_url in ${file} reads the API's base URL from it`);
    return undefined;
  }
  if (written?.url !== undefined) return written.url;
  const servers = Array.isArray(spec["servers"]) ? (spec["servers"] as unknown[]) : [];
  const urls = servers.map((server) => objectOf(server)?.["url"]).filter((url): url is string => typeof url === "string");
  const usable = urls.filter((url) => isHttpUrl(url) && !url.includes("{") && !queryOrFragment(url));
  if (urls.length === 1 && usable.length === 1) return usable[0];
  problems.push(
    `the spec names ${urls.length === 0 ? "no server URL" : urls.length === 1 ? `the server URL ${JSON.stringify(urls[0]!.slice(0, 200))}, which is not an absolute http(s) URL without variables, query or fragment` : `${urls.length} server URLs`}, so serve does not know where the API is; write \`serve: { base_url: { env: API_URL } }\` in ${file}`,
  );
  return undefined;
}

function authHeaders(
  auth: ServeAuth,
  spec: SpecDocument,
  env: Environment,
  file: string,
  problems: string[],
  secrets: string[],
): Record<string, string> {
  /** The variable's value; `encoded` when it reaches the header base64-encoded, so any character goes. */
  const secret = (name: string, what: string, { mayBeEmpty = false, encoded = false } = {}): string | undefined => {
    const value = env[name];
    if (value === undefined || (value === "" && !mayBeEmpty))
      problems.push(`${name} is not set; serve.auth in ${file} reads ${what} from it`);
    else if (CONTROL_CHARACTER.test(value)) problems.push(`${name} holds a control character (a line break?), which a header cannot carry`);
    else if (!encoded && !HEADER_VALUE.test(value))
      problems.push(`${name} holds a character other than printable ASCII, which a header cannot carry as it is`);
    else {
      secrets.push(value);
      return value;
    }
    return undefined;
  };
  switch (auth.scheme) {
    case "bearer": {
      const token = secret(auth.token.env, "the bearer token");
      return token === undefined ? {} : { Authorization: `Bearer ${token}` };
    }
    case "basic": {
      const username = secret(auth.username.env, "the basic username", { encoded: true });
      // An empty password is how some APIs take a key as the user name.
      const password = secret(auth.password.env, "the basic password", { encoded: true, mayBeEmpty: true });
      if (username?.includes(":"))
        problems.push(`${auth.username.env} holds a ":", which HTTP basic authentication does not allow in a username`);
      if (username === undefined || password === undefined) return {};
      const credentials = Buffer.from(`${username}:${password}`, "utf8").toString("base64");
      secrets.push(credentials);
      return { Authorization: `Basic ${credentials}` };
    }
    case "api_key": {
      const header = auth.header ?? specApiKeyHeader(spec);
      const refusal = header === undefined ? undefined : headerNameProblem(header);
      if (header === undefined)
        problems.push(
          `serve.auth.api_key in ${file} names no header, and the spec has no single apiKey scheme in a header to take it from; write \`header: X-API-Key\``,
        );
      else if (refusal)
        problems.push(
          `the API key's header, ${JSON.stringify(header.slice(0, 100))} (${auth.header === undefined ? "the spec's apiKey scheme" : "serve.auth.api_key.header"}), ${refusal}; write \`header: X-API-Key\` in serve.auth.api_key in ${file}`,
        );
      const key = secret(auth.key.env, "the API key");
      return header === undefined || refusal || key === undefined ? {} : { [header]: key };
    }
  }
}

/** Why `name` cannot carry the API key, or undefined when it can. */
function headerNameProblem(name: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "is not a header name";
  if (UNSENDABLE_HEADERS.includes(name.toLowerCase())) return "is not a header the API key can be sent in";
  return undefined;
}

/** The header of the spec's apiKey scheme, when it has exactly one, and it is sent in a header. */
function specApiKeyHeader(spec: SpecDocument): string | undefined {
  const schemes = Object.values(objectOf(objectOf(spec["components"])?.["securitySchemes"]) ?? {}).map(objectOf);
  const apiKeys = schemes.filter((scheme) => scheme?.["type"] === "apiKey");
  const only = apiKeys.length === 1 ? apiKeys[0] : undefined;
  return only?.["in"] === "header" && typeof only["name"] === "string" ? only["name"] : undefined;
}
