// Ids the model can pass back: whole or short, numbers kept, relationships read or marked.
import { describe, expect, it } from "vitest";
import { context, type ProjectionIssue } from "../../templates/runtime/context.js";
import {
  argumentId,
  integerId,
  relatedMany,
  relatedOne,
  relationshipIds,
  shortArgumentId,
  shortRelatedMany,
  shortRelatedOne,
  shortTextOrNumberId,
  TEXT_OR_NUMBER_IDS,
  textOrNumberId,
  Unreadable,
} from "../../templates/runtime/ids.js";

const A = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const B = "tkt_0b1c2d3e-2d18-4b6e-9c05-8ab3f2e17d90";
const issues: ProjectionIssue[] = [];
const ctx = context("ticket", { onIssue: (issue) => issues.push(issue) });

describe("argument ids", () => {
  it.each([
    [argumentId, A, A],
    [shortArgumentId, A, "tkt_9f3a71c4"],
    [argumentId, 42, { unusable: "expected a string, got number" }],
    [shortArgumentId, 42, { unusable: "expected a string, got number" }],
    [textOrNumberId, 42, "42"],
    [shortTextOrNumberId, 42, "42"],
    [shortArgumentId, true, { unusable: "expected a string, got boolean" }],
    [argumentId, null, null],
  ] as const)("%o reads %j as %j", (reader, value, expected) => {
    expect(reader(value, { field: "id", required: false, ctx })).toEqual(expected);
  });

  it("keeps an integer id a number, reading digits as one", () => {
    expect(integerId("17", { field: "id", required: true, ctx })).toBe(17);
    expect(integerId(17, { field: "id", required: true, ctx })).toBe(17);
    expect(integerId("1.5", { field: "id", required: true, ctx })).toEqual({
      unusable: "expected an integer id, got text that is not an integer of at most 15 digits",
    });
  });

  it("gives a short id the context's own short form when it has one", () => {
    const own = context("ticket", { shortIds: new Map([[A, "tkt_9f3a71c4-2d"]]) });
    expect(shortArgumentId(A, { field: "id", required: true, ctx: own })).toBe("tkt_9f3a71c4-2d");
  });
});

describe("relationship ids", () => {
  it.each([
    [{ data: { type: "ticket", id: A } }, A],
    [
      {
        data: [
          { type: "ticket", id: A },
          { type: "ticket", id: 7 },
        ],
      },
      [A, "7"],
    ],
    [{ data: null }, null],
    [{ links: {} }, null],
    [undefined, null],
  ])("reads %j as %j", (relationship, ids) => {
    expect(relationshipIds(relationship, { ids: TEXT_OR_NUMBER_IDS })).toEqual(ids);
  });

  it("keeps what cannot be read, with why", () => {
    expect(relationshipIds("x", { ids: TEXT_OR_NUMBER_IDS })).toEqual(new Unreadable("x", "expected a relationship object, got string"));
    expect(relationshipIds({ data: { type: "ticket" } }, { ids: TEXT_OR_NUMBER_IDS })).toEqual(
      new Unreadable({ type: "ticket" }, "expected a resource identifier { type, id }, got an object without an id"),
    );
  });

  it("projects one or many related ids, whole or short, and marks the wrong shape", () => {
    expect(relatedOne(A, { field: "parent", ctx })).toBe(A);
    expect(shortRelatedOne(A, { field: "parent", ctx })).toBe("tkt_9f3a71c4");
    expect(relatedOne([A], { field: "parent", ctx })).toEqual({ unusable: "expected one related record, got a list" });
    expect(relatedMany([A, B], { field: "links", ctx })).toEqual([A, B]);
    expect(shortRelatedMany([A, B], { field: "links", ctx })).toEqual(["tkt_9f3a71c4", "tkt_0b1c2d3e"]);
    expect(shortRelatedMany(A, { field: "links", ctx })).toEqual({ unusable: "expected a list of related records, got one" });
  });
});
