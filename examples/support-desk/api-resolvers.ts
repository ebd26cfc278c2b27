import type { Client } from "openapi-fetch";
import type {
  paths,
  Resolver,
  Resolvers,
} from "../../generated/support/index.js";

// Labels from the API's own list endpoints, one request per resolver call: `filter[id]` carries
// the call's ids at once, comma-separated as the spec declares it (style form, explode false).
// Until the generated createResolvers(client) does this from the annotation, it is written here.

/** The spec's maxItems for `filter[id]`: a page of results never comes near it; more ids take more requests. */
const MAX_IDS = 100;
const commaSeparated = { array: { style: "form", explode: false } } as const;

function labelsFrom(
  list: (ids: readonly string[]) => Promise<{
    data?: { data: { id: string; attributes: Record<string, unknown> }[] };
    response: Response;
  }>,
  label: string,
): Resolver {
  return async (ids) => {
    const batches = Array.from(
      { length: Math.ceil(ids.length / MAX_IDS) },
      (_, i) => ids.slice(i * MAX_IDS, (i + 1) * MAX_IDS),
    );
    const pages = await Promise.all(batches.map((batch) => list(batch)));
    return new Map(
      pages.flatMap(({ data, response }) => {
        if (!data) throw new Error(`the API answered ${response.status}`);
        return data.data.map((record) => [
          record.id,
          String(record.attributes[label]),
        ]);
      }),
    );
  };
}

export function apiResolvers(client: Client<paths>): Resolvers {
  return {
    users: labelsFrom(
      (ids) =>
        client.GET("/users", {
          params: { query: { "filter[id]": [...ids] } },
          querySerializer: commaSeparated,
        }),
      "display_name",
    ),
    orgs: labelsFrom(
      (ids) =>
        client.GET("/organizations", {
          params: { query: { "filter[id]": [...ids] } },
          querySerializer: commaSeparated,
        }),
      "name",
    ),
  };
}
