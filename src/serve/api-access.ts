import type { ServeAnnotation, ServeAuth } from "../annotation/types.js";
import { holdsCredentials, isHttpUrl } from "../annotation/serve.js";

/** How the served tools reach the API: its base URL and the headers every request carries. */
export interface ApiAccess {
  readonly baseUrl: string;
  /** Header values are secrets: never printed, never written into a message. */
  readonly headers: Readonly<Record<string, string>>;
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

const objectOf = (value: unknown): { readonly [key: string]: unknown } | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { [key: string]: unknown }) : undefined;

/**
 * The base URL and auth headers `serve:` names, read from `env`, with the spec's single server URL
 * and single header apiKey scheme where the annotation leaves them out. Throws {@link AccessProblems}
 * listing every variable that is missing or unusable.
 */
export function apiAccess(serve: ServeAnnotation | undefined, spec: SpecDocument, env: Environment, file: string): ApiAccess {
  const problems: string[] = [];
  const baseUrl = baseUrlOf(serve, spec, env, file, problems);
  const headers = serve?.auth ? authHeaders(serve.auth, spec, env, file, problems) : {};
  if (problems.length > 0 || baseUrl === undefined) throw new AccessProblems(problems);
  return { baseUrl: baseUrl.replace(/\/+$/, ""), headers };
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
  const usable = urls.filter((url) => isHttpUrl(url) && !url.includes("{"));
  if (urls.length === 1 && usable.length === 1) return usable[0];
  problems.push(
    `the spec names ${urls.length === 0 ? "no server URL" : urls.length === 1 ? `the server URL ${JSON.stringify(urls[0]!.slice(0, 200))}, which is not an absolute http(s) URL without variables` : `${urls.length} server URLs`}, so serve does not know where the API is; write \`serve: { base_url: { env: API_URL } }\` in ${file}`,
  );
  return undefined;
}

function authHeaders(auth: ServeAuth, spec: SpecDocument, env: Environment, file: string, problems: string[]): Record<string, string> {
  const secret = (name: string, what: string): string | undefined => {
    const value = env[name];
    if (value === undefined || value === "") problems.push(`${name} is not set; serve.auth in ${file} reads ${what} from it`);
    else if (CONTROL_CHARACTER.test(value)) problems.push(`${name} holds a control character (a line break?), which a header cannot carry`);
    else return value;
    return undefined;
  };
  switch (auth.scheme) {
    case "bearer": {
      const token = secret(auth.token.env, "the bearer token");
      return token === undefined ? {} : { Authorization: `Bearer ${token}` };
    }
    case "basic": {
      const username = secret(auth.username.env, "the basic username");
      const password = secret(auth.password.env, "the basic password");
      if (username?.includes(":"))
        problems.push(`${auth.username.env} holds a ":", which HTTP basic authentication does not allow in a username`);
      if (username === undefined || password === undefined) return {};
      return { Authorization: `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}` };
    }
    case "api_key": {
      const header = auth.header ?? specApiKeyHeader(spec);
      if (header === undefined)
        problems.push(
          `serve.auth.api_key in ${file} names no header, and the spec has no single apiKey scheme in a header to take it from; write \`header: X-API-Key\``,
        );
      const key = secret(auth.key.env, "the API key");
      return header === undefined || key === undefined ? {} : { [header]: key };
    }
  }
}

/** The header of the spec's apiKey scheme, when it has exactly one, and it is sent in a header. */
function specApiKeyHeader(spec: SpecDocument): string | undefined {
  const schemes = Object.values(objectOf(objectOf(spec["components"])?.["securitySchemes"]) ?? {}).map(objectOf);
  const apiKeys = schemes.filter((scheme) => scheme?.["type"] === "apiKey");
  const only = apiKeys.length === 1 ? apiKeys[0] : undefined;
  return only?.["in"] === "header" && typeof only["name"] === "string" ? only["name"] : undefined;
}
