// While a page is walked, an id its resolver must name leaves a place in the object being built.
import { describe, expect, it } from "vitest";
import { context } from "../../templates/runtime/context.js";
import { joinMany, joinOne } from "../../templates/runtime/joins.js";
import {
  hold,
  LabelsLater,
  later,
  PLACE_SLOTS,
  placed,
  placesSoFar,
  walkingWith,
  type Site,
  type Walk,
} from "../../templates/runtime/labels-later.js";
import { nested } from "../../templates/runtime/records.js";
import type { Labels } from "../../templates/runtime/resolvers.js";

const U1 = "usr_41c2be09-77aa-4f31-8d2c-1e5b6c9042af";
const U2 = "usr_5d8804f1-6b2a-4c77-9e10-3f7d51ac8802";
const ctx = context("ticket", {});
const walk = (): Walk => ({ places: [], length: 0, issues: [], held: 0 });

/** Each place of a walk as holder, key, the id's place among the wanted, the id or code, and the field. */
const placesOf = (state: Walk) => {
  const found = [];
  for (let i = 0; i < state.length; i += PLACE_SLOTS) {
    const site = state.places[i + 4] as Site;
    const wanted = state.places[i + 2] as number;
    found.push({
      holder: state.places[i],
      key: state.places[i + 1],
      wanted,
      value: site.code ? state.places[i + 3] : site.labels.wanted[wanted],
      field: site.field,
    });
  }
  return found;
};

describe("labels given later", () => {
  it("gives an id included named its label, and leaves a place for every other, each id wanted once in page order", () => {
    const labels = new LabelsLater("users", new Map([[U1, "Ana Lima"]]));
    const state = walk();
    const results = walkingWith(state, () => [
      { assignee: later(U2, labels, ctx, "assignee", "assignee", false) },
      { assignee: later(U1, labels, ctx, "assignee", "assignee", false) },
      { assignee: later(U2, labels, ctx, "assignee", "assignee", false) },
    ]);
    expect(results.map((r) => r.assignee)).toEqual([null, "Ana Lima", null]);
    expect(labels.wanted).toEqual([U2]);
    expect(placesOf(state).map(({ wanted, value, field }) => ({ wanted, value, field }))).toEqual([
      { wanted: 0, value: U2, field: "assignee" },
      { wanted: 0, value: U2, field: "assignee" },
    ]);
  });

  it("wants a code as the text the resolver receives, keeping the code as the record had it", () => {
    const codes = new LabelsLater("models", undefined);
    const state = walk();
    walkingWith(state, () => {
      later(7, codes, ctx, "model_code", "model", true);
      later("7", codes, ctx, "model_code", "model", true);
    });
    expect(codes.wanted).toEqual(["7"]);
    expect(placesOf(state).map((p) => [p.wanted, p.value])).toEqual([
      [0, 7],
      [0, "7"],
    ]);
  });

  it("gives each place the object built around it: inner objects and lists claim theirs before the record", () => {
    const labels = new LabelsLater("users", undefined);
    const lookups = labels as unknown as Labels;
    const state = walk();
    const record = walkingWith(state, () =>
      placed({
        assignee: joinOne(U1, { labels: lookups, resolver: "users", key: "assignee", field: "assignee", ctx }),
        watchers: joinMany([U2, U1], { labels: lookups, resolver: "users", field: "watchers", ctx }),
        parent: nested({ owner: U2 }, { field: "parent", required: false, ctx }, (part) => ({
          owner: joinOne(part["owner"] as string, { labels: lookups, resolver: "users", key: "owner", field: "parent.owner", ctx }),
        })),
      }),
    );
    expect(placesOf(state).map(({ holder, key }) => [holder, key])).toEqual([
      [record, "assignee"],
      [record.watchers, 0],
      [record.watchers, 1],
      [record.parent, "owner"],
    ]);
    expect(placesOf(state)[0]!.holder).toBe(record);
    expect(placesOf(state)[1]!.holder).toBe(record.watchers);
    expect(placesOf(state)[3]!.holder).toBe(record.parent);
    expect(labels.wanted).toEqual([U1, U2]);
  });

  it("does nothing outside a walk", () => {
    const object = { a: 1 };
    expect(placesSoFar()).toBe(0);
    expect(hold(object, 0)).toBe(object);
    expect(placed(object)).toBe(object);
  });
});
