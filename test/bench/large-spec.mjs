// A large JSON:API spec made here, shaped like the app-distribution APIs whose whole spec drafts
// hundreds of tools: each resource has a list, a get, related lists, relationship linkage
// endpoints, create, update and delete, and relationships to four others. `npm run bench` writes it
// and measures generate and init on it beside the real specs, so the targets hold on a spec nobody
// tuned for. The same `resources` make the same document, byte for byte.

const STATES = [
  "DRAFT",
  "READY_FOR_REVIEW",
  "IN_REVIEW",
  "APPROVED",
  "REJECTED",
  "REMOVED",
];
const PLATFORMS = ["IOS", "MAC_OS", "TV_OS", "VISION_OS"];

const capital = (name) => name[0].toUpperCase() + name.slice(1);
const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const json = (name) => ({ "application/json": { schema: ref(name) } });
const linkage = (type) => ({
  type: "object",
  properties: {
    type: { type: "string", enum: [type] },
    id: { type: "string" },
  },
  required: ["id", "type"],
});
const relationshipLinks = {
  type: "object",
  properties: { self: { type: "string" }, related: { type: "string" } },
};
const ERRORS = {
  400: { description: "Bad request", content: json("ErrorResponse") },
  404: { description: "Not found", content: json("ErrorResponse") },
};

/** The document for `count` resources: about eleven operations and 24 KB of JSON each. */
export function largeSpec(count) {
  const names = Array.from(
    { length: count },
    (_, i) => `thing${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
  );
  const schemas = {
    PagingInformation: {
      type: "object",
      properties: {
        paging: {
          type: "object",
          properties: {
            total: { type: "integer" },
            limit: { type: "integer" },
          },
          required: ["total", "limit"],
        },
      },
      required: ["paging"],
    },
    PagedDocumentLinks: {
      type: "object",
      properties: {
        self: { type: "string", format: "uri-reference" },
        first: { type: "string" },
        next: { type: "string" },
      },
      required: ["self"],
    },
    ResourceLinks: {
      type: "object",
      properties: { self: { type: "string", format: "uri-reference" } },
    },
    ErrorResponse: {
      type: "object",
      properties: {
        errors: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              status: { type: "string" },
              code: { type: "string" },
              title: { type: "string" },
              detail: { type: "string" },
            },
            required: ["code", "detail", "status", "title"],
          },
        },
      },
    },
  };
  const paths = {};
  names.forEach((name, i) => {
    const type = `${name}s`;
    const Name = capital(name);
    const related = [1, 2, 3, 5].map((step) => names[(i + step) % count]);
    const attributes = {
      name: { type: "string", description: `The ${name}'s name.` },
      description: { type: "string" },
      state: { type: "string", enum: STATES },
      platform: { type: "string", enum: PLATFORMS },
      createdDate: { type: "string", format: "date-time" },
      expirationDate: { type: "string", format: "date-time" },
      version: { type: "string" },
      usesNonExemptEncryption: { type: "boolean" },
      minOsVersion: { type: "string" },
      count: { type: "integer" },
      locale: { type: "string" },
      url: { type: "string", format: "uri" },
    };
    // Every other relationship is to-many.
    const relationships = Object.fromEntries(
      related.map((other, k) => [
        k % 2 ? `${other}s` : other,
        k % 2
          ? {
              type: "object",
              properties: {
                links: relationshipLinks,
                meta: ref("PagingInformation"),
                data: { type: "array", items: linkage(`${other}s`) },
              },
            }
          : {
              type: "object",
              properties: {
                links: relationshipLinks,
                data: linkage(`${other}s`),
              },
            },
      ]),
    );
    schemas[Name] = {
      type: "object",
      title: Name,
      properties: {
        type: { type: "string", enum: [type] },
        id: { type: "string" },
        attributes: { type: "object", properties: attributes },
        relationships: { type: "object", properties: relationships },
        links: ref("ResourceLinks"),
      },
      required: ["id", "type"],
    };
    const included = {
      type: "array",
      items: { oneOf: related.map((other) => ref(capital(other))) },
    };
    schemas[`${Name}Response`] = {
      type: "object",
      properties: { data: ref(Name), included, links: ref("ResourceLinks") },
      required: ["data", "links"],
    };
    schemas[`${Name}sResponse`] = {
      type: "object",
      properties: {
        data: { type: "array", items: ref(Name) },
        included,
        links: ref("PagedDocumentLinks"),
        meta: ref("PagingInformation"),
      },
      required: ["data", "links"],
    };
    schemas[`${Name}CreateRequest`] = {
      type: "object",
      properties: {
        data: {
          type: "object",
          properties: {
            type: { type: "string", enum: [type] },
            attributes: {
              type: "object",
              properties: {
                name: { type: "string" },
                platform: attributes.platform,
              },
              required: ["name"],
            },
          },
          required: ["type", "attributes"],
        },
      },
      required: ["data"],
    };
    const list = (parameter, values) => ({
      name: parameter,
      in: "query",
      style: "form",
      explode: false,
      schema: { type: "array", items: values },
    });
    const fields = list(`fields[${type}]`, {
      type: "string",
      enum: Object.keys(attributes),
    });
    const include = list("include", {
      type: "string",
      enum: Object.keys(relationships),
    });
    const id = {
      name: "id",
      in: "path",
      required: true,
      schema: { type: "string" },
    };
    const limit = {
      name: "limit",
      in: "query",
      schema: { type: "integer", maximum: 200 },
    };
    /** One operation of the resource: its parameters, a JSON body it takes, and its one success. */
    const operation = (
      operationId,
      { parameters, body, status, description, content },
    ) => ({
      tags: [Name],
      operationId,
      ...(parameters ? { parameters } : {}),
      ...(body ? { requestBody: { required: true, content: json(body) } } : {}),
      responses: {
        ...ERRORS,
        [status]: { description, ...(content ? { content } : {}) },
      },
    });
    paths[`/v1/${type}`] = {
      get: operation(`${type}_getCollection`, {
        parameters: [
          list("filter[state]", attributes.state),
          list("filter[platform]", attributes.platform),
          list("sort", {
            type: "string",
            enum: ["name", "-name", "createdDate", "-createdDate"],
          }),
          fields,
          limit,
          include,
        ],
        status: 200,
        description: "List",
        content: json(`${Name}sResponse`),
      }),
      post: operation(`${type}_createInstance`, {
        body: `${Name}CreateRequest`,
        status: 201,
        description: "Created",
        content: json(`${Name}Response`),
      }),
    };
    paths[`/v1/${type}/{id}`] = {
      get: operation(`${type}_getInstance`, {
        parameters: [id, fields, include],
        status: 200,
        description: "One",
        content: json(`${Name}Response`),
      }),
      patch: operation(`${type}_updateInstance`, {
        parameters: [id],
        body: `${Name}CreateRequest`,
        status: 200,
        description: "Updated",
        content: json(`${Name}Response`),
      }),
      delete: operation(`${type}_deleteInstance`, {
        parameters: [id],
        status: 204,
        description: "Deleted",
      }),
    };
    related.forEach((other, k) => {
      const relationship = k % 2 ? `${other}s` : other;
      paths[`/v1/${type}/{id}/relationships/${relationship}`] = {
        get: operation(`${type}_${relationship}_getToManyRelationship`, {
          parameters: [id, limit],
          status: 200,
          description: "Linkage",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  data: { type: "array", items: linkage(`${other}s`) },
                  links: ref("PagedDocumentLinks"),
                  meta: ref("PagingInformation"),
                },
                required: ["data", "links"],
              },
            },
          },
        }),
      };
      if (k < 2)
        paths[`/v1/${type}/{id}/${relationship}`] = {
          get: operation(`${type}_${relationship}_getToManyRelated`, {
            parameters: [
              id,
              list(`fields[${other}s]`, { type: "string" }),
              limit,
            ],
            status: 200,
            description: "Related",
            content: json(`${capital(other)}sResponse`),
          }),
        };
    });
  });
  return {
    openapi: "3.0.1",
    info: { title: "A large constructed JSON:API", version: "1.0" },
    servers: [{ url: "https://api.example.com" }],
    paths,
    components: { schemas },
  };
}
