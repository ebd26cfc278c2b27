import process from "node:process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isObject } from "../annotation/next-page.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";

/** The longest request line read, as the SDK's own stdio transport allows (10 MiB). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Newline-delimited JSON-RPC over stdin and stdout, like the SDK's StdioServerTransport, except that
 * a line it cannot take is answered rather than dropped: the SDK's transport closes for good on a
 * line over its limit (the server then exits 0 without a word) and passes anything that is not a
 * valid message to `onerror`, so the client never hears back. Here a line that is not JSON gets a
 * parse error, a message that is not JSON-RPC an invalid request, a request whose `params` is not an
 * object (`params: []`) invalid params, and an over-long line, read no further than the limit, an
 * invalid request; each is also logged on stderr, and serving goes on.
 */
export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  private line: Buffer[] = [];
  private lineBytes = 0;
  /** Set once the current line passed the limit: the rest of it is skipped up to its newline. */
  private skipping = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly log: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.read);
    this.input.on("error", this.fail);
    this.input.on("end", this.ended);
  }

  async close(): Promise<void> {
    this.input.off("data", this.read);
    this.input.off("error", this.fail);
    this.input.off("end", this.ended);
    // A stdin still flowing keeps the process alive after the server closed.
    this.input.pause();
    this.line = [];
    this.lineBytes = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((sent) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) sent();
      else this.output.once("drain", sent);
    });
  }

  private readonly fail = (error: Error) => this.onerror?.(error);

  private readonly ended = () => void this.close();

  private readonly read = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, start)) {
      this.take(bytes.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    this.take(bytes.subarray(start));
  };

  private take(part: Buffer) {
    if (this.skipping || part.length === 0) return;
    if (this.lineBytes + part.length > this.maxLineBytes) {
      this.skipping = true;
      this.line = [];
      this.lineBytes = 0;
      return;
    }
    this.line.push(part);
    this.lineBytes += part.length;
  }

  private endLine() {
    if (this.skipping) {
      this.skipping = false;
      this.refuse(null, ErrorCode.InvalidRequest, `Invalid Request: a request line is longer than ${this.maxLineBytes} bytes`);
      return;
    }
    const text = Buffer.concat(this.line, this.lineBytes).toString("utf8").replace(/\r$/, "");
    this.line = [];
    this.lineBytes = 0;
    if (text.trim() !== "") this.receive(text);
  }

  private receive(text: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.refuse(null, ErrorCode.ParseError, "Parse error: the line is not JSON");
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (message.success) {
      this.onmessage?.(message.data);
      return;
    }
    const fields = isObject(parsed) ? parsed : {};
    const id =
      typeof fields["id"] === "string" || (typeof fields["id"] === "number" && Number.isInteger(fields["id"]))
        ? (fields["id"] as RequestId)
        : null;
    const isCall = fields["jsonrpc"] === "2.0" && typeof fields["method"] === "string";
    if (isCall && "params" in fields && !isObject(fields["params"])) {
      // A notification is never answered, not even with an error.
      if (id === null) this.log(`projector serve: ignored notification ${fields["method"]}: its params are not an object`);
      else this.refuse(id, ErrorCode.InvalidParams, "Invalid params: params must be an object");
      return;
    }
    this.refuse(id, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
  }

  private refuse(id: RequestId | null, code: ErrorCode, text: string) {
    this.log(`projector serve: answered ${code}: ${text}`);
    // JSON-RPC answers with a null id when the request's id cannot be read; the SDK's types want one.
    void this.send({ jsonrpc: "2.0", id: id as RequestId, error: { code, message: text } });
  }
}
