// A generated projection reads like the hand-written one: a literal of the result's fields, each
// read by a runtime reader whose options are named, so a diff shows which field changed and how.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/pipeline.js";

const ticket = readFileSync(join(ROOT, "generated/support/resources/ticket.ts"), "utf8");
const projection = ticket.slice(ticket.indexOf("export function projectTicket"));

describe("the bundled ticket projection", () => {
  it("returns an object literal of the result's fields, in the annotation's order", () => {
    const keys = [...projection.matchAll(/^ {4}(\w+): /gm)].map((match) => match[1]);
    expect(keys).toEqual(["id", "subject", "status", "priority", "assignee", "org", "opened", "last_update", "sla_due"]);
    expect(projection).toContain("  return {\n");
    expect(ticket).not.toMatch(/new \w+Results\(|plainObjects|function fill/);
  });

  it("names every option a reader is given", () => {
    expect(projection).toContain('id: shortArgumentId(root?.["id"], { field: "id", required: true, ctx }),');
    expect(projection).toContain(
      [
        '    status: legend(attributes?.["status_code"], {',
        "      words: TICKET_STATUS_CODE,",
        '      field: "status_code",',
        "      required: true,",
        "      ctx,",
        "    }),",
      ].join("\n"),
    );
    expect(projection).toContain(
      [
        "    org: joinOne(",
        '      relationshipIds(relationships?.["organization"], {',
        "        ids: TEXT_IDS,",
        '        types: ["organization"],',
        "      }),",
        "      {",
        "        labels: lookups.orgs,",
        '        resolver: "orgs",',
        '        key: "org",',
        '        field: "organization",',
        "        ctx,",
        "      },",
      ].join("\n"),
    );
    expect(projection).not.toMatch(/REQUIRED|OPTIONAL/);
  });
});
