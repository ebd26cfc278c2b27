// The fetch serve's client sends its requests through: the API's credentials go to the API's origin
// and nowhere else.

/** How many redirects within the API's origin one request follows. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that follows a redirect only within the origin of the request it was given, at most
 * {@link MAX_REDIRECTS} times, and rejects one to another origin before anything is sent there:
 * the request carries the API's credentials, and another host's answer is not the API's.
 */
export function sameOriginFetch(send: Fetch = fetch): Fetch {
  return async (request, init) => {
    const origin = new URL(request.url).origin;
    let current = request;
    for (let redirects = 0; ; redirects++) {
      // Kept unread, so that a 307 or 308 can send the body again.
      const replay = current.clone();
      const response = await send(current, { ...init, redirect: "manual" });
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
      void response.body?.cancel();
      if (!URL.canParse(location, current.url)) throw new Error(`the API answered ${response.status} with a Location that is not a URL`);
      const target = new URL(location, current.url);
      if (target.origin !== origin)
        throw new Error(
          `the API answered ${response.status}, redirecting the request to another host, which serve does not follow: the request carries the API's credentials`,
        );
      if (redirects === MAX_REDIRECTS)
        throw new Error(`the API redirected the request more than ${MAX_REDIRECTS} times, which serve does not follow`);
      // A 303, and a 301 or 302 answering a POST, are followed with a GET, as browsers do.
      const asGet = response.status === 303 || ((response.status === 301 || response.status === 302) && replay.method === "POST");
      current = asGet
        ? new Request(target, { method: "GET", headers: withoutBodyHeaders(replay.headers), signal: replay.signal })
        : new Request(target, {
            method: replay.method,
            headers: replay.headers,
            signal: replay.signal,
            ...(replay.body ? { body: await replay.arrayBuffer() } : {}),
          });
    }
  };
}

function withoutBodyHeaders(headers: Headers): Headers {
  const kept = new Headers(headers);
  for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) kept.delete(name);
  return kept;
}
