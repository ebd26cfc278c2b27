import type Database from "better-sqlite3";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import {
  addCommentOutputSchema,
  getTicketOutputSchema,
  projectAddComment,
  projectGetTicket,
  projectSearchTickets,
  searchTicketsOutputSchema,
  serializeToolResult,
  type ProjectionIssue,
  type Resolvers,
} from "../../generated/support/index.js";
import {
  addComment,
  findTicket,
  getTicket,
  PAGE_SIZE,
  searchTickets,
} from "./api.js";

export interface ToolCallResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Tool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema: { type: "object"; [key: string]: unknown };
  /** Returns the projected result, or a message for the model when the call cannot be served. */
  run(args: Record<string, unknown>): Promise<object | string>;
}

export interface SupportDeskTool extends Tool {
  /** Checks the arguments against `inputSchema`, filling in its defaults. */
  validate: ValidateFunction;
}

const ajv = new Ajv2020({ useDefaults: true });

// The API filters by status code; the model sees and passes the legend's words.
const STATUS_CODES = {
  new: 1,
  pending: 2,
  open: 3,
  resolved: 4,
  closed: 5,
} as const;

const ticketIdInput = {
  type: "string",
  minLength: 1,
  description:
    "A ticket id as a search result gives it (the short form, like tkt_9f3a71c4, is fine).",
} as const;

export function supportDeskTools(
  db: Database.Database,
  resolvers: Resolvers,
  onIssue: (issue: ProjectionIssue) => void,
): SupportDeskTool[] {
  const tools: Tool[] = [
    {
      name: "search_tickets",
      description: `Search support tickets by words in their subject, most recently updated first, ${PAGE_SIZE} a page.`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "Words from the subject." },
          status: { type: "string", enum: Object.keys(STATUS_CODES) },
          page: { type: "integer", minimum: 1, default: 1 },
        },
        additionalProperties: false,
      },
      outputSchema: searchTicketsOutputSchema,
      run: (args) =>
        projectSearchTickets(
          searchTickets(db, {
            query: args["query"] as string | undefined,
            statusCode:
              STATUS_CODES[args["status"] as keyof typeof STATUS_CODES],
            page: args["page"] as number | undefined,
          }),
          resolvers,
          { onIssue },
        ),
    },
    {
      name: "get_ticket",
      description: "One ticket, with its assignee and organization by name.",
      inputSchema: {
        type: "object",
        properties: { ticket_id: ticketIdInput },
        required: ["ticket_id"],
        additionalProperties: false,
      },
      outputSchema: getTicketOutputSchema,
      run: async (args) => {
        const ticket = findTicket(db, args["ticket_id"] as string);
        return ticket
          ? projectGetTicket(getTicket(db, ticket), resolvers, { onIssue })
          : `No ticket ${String(args["ticket_id"])}.`;
      },
    },
    {
      name: "add_comment",
      description:
        "Add a comment to a ticket; customers see it unless `public` is false.",
      inputSchema: {
        type: "object",
        properties: {
          ticket_id: ticketIdInput,
          body: { type: "string", minLength: 1 },
          public: { type: "boolean", default: true },
        },
        required: ["ticket_id", "body"],
        additionalProperties: false,
      },
      outputSchema: addCommentOutputSchema,
      run: async (args) => {
        const ticket = findTicket(db, args["ticket_id"] as string);
        if (!ticket) return `No ticket ${String(args["ticket_id"])}.`;
        return projectAddComment(
          addComment(
            db,
            ticket,
            args["body"] as string,
            args["public"] as boolean,
          ),
          resolvers,
          { onIssue },
        );
      },
    },
  ];
  return tools.map((tool) => ({
    ...tool,
    validate: ajv.compile(tool.inputSchema),
  }));
}

/**
 * Validates the arguments, runs the tool and returns the MCP result: the projection as
 * `structuredContent` and, for clients that read only text, the same result serialized.
 * Bad arguments and unknown ids come back as tool errors the model can read and correct.
 */
export async function callTool(
  tools: readonly SupportDeskTool[],
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolCallResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) return failure(`Unknown tool ${name}.`);
  if (!tool.validate(args))
    return failure(
      `Invalid arguments: ${ajv.errorsText(tool.validate.errors, { dataVar: "arguments" })}.`,
    );
  try {
    const result = await tool.run(args);
    if (typeof result === "string") return failure(result);
    return {
      structuredContent: result as Record<string, unknown>,
      content: [{ type: "text", text: serializeToolResult(result) }],
    };
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
}

function failure(text: string): ToolCallResult {
  return { content: [{ type: "text", text }], isError: true };
}
