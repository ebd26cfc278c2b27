// Serve knows the secrets it sends; an API may echo one back ("bad key: ..."), and no text serve hands
// out (a tool's result or error, a line on stderr) carries it on.

/** What stands in for a secret in a text serve hands out. */
export const SECRET_MASK = "[secret]";

/** Secrets shorter than this are not masked: replacing every "ab" would garble the text and hide little. */
export const MIN_MASKED_SECRET = 4;

/** `text` with every secret in `secrets` replaced by {@link SECRET_MASK}, longest first. */
export function secretMasker(secrets: readonly string[]): (text: string) => string {
  const masked = [...new Set(secrets)].filter((secret) => secret.length >= MIN_MASKED_SECRET).sort((a, b) => b.length - a.length);
  return (text) => masked.reduce((result, secret) => result.split(secret).join(SECRET_MASK), text);
}

/** `value` with `mask` applied to every string in it, object keys included. */
export function maskedDeep(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === "string") return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskedDeep(item, mask));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [mask(key), maskedDeep(item, mask)]));
}

type Handler = (request: unknown, extra: unknown) => unknown;

/**
 * `server` with each request handler registered on it answering through `mask`: the generated
 * registerTools sets them, and a tool's result or error reaches the client masked.
 */
export function maskingServer<S extends object>(server: S, mask: (text: string) => string): S {
  return new Proxy(server, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== "setRequestHandler" || typeof value !== "function") return value;
      return (schema: unknown, handler: Handler) =>
        value.call(target, schema, async (request: unknown, extra: unknown) => maskedDeep(await handler(request, extra), mask));
    },
  });
}
