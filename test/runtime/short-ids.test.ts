// Short ids: the prefix and a UUID's first eight digits; lengthened only where two would collide.
import { describe, expect, it } from "vitest";
import { matchesShortId, shortenIds, shortId } from "../../templates/runtime/short-ids.js";

const TICKET = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";

describe("short ids", () => {
  it.each([
    [TICKET, "tkt_9f3a71c4"],
    ["9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90", "9f3a71c4"],
    ["orgs/9F3A71C4-2D18-4B6E-9C05-8AB3F2E17D90", "orgs/9F3A71C4"],
    ["usr_123", "usr_123"],
    ["2026-02-11-report", "2026-02-11-report"],
  ])("shortens %s to %s", (id, short) => {
    expect(shortId(id)).toBe(short);
  });

  it.each([
    [TICKET, TICKET, true],
    [TICKET, "tkt_9f3a71c4", true],
    [TICKET, "tkt_9f3a71c4-2d", true],
    [TICKET, "tkt_9f3a71", false],
    [TICKET, "tkt_9f3a71c5", false],
  ])("%s matches %s: %s", (id, short, expected) => {
    expect(matchesShortId(id, short)).toBe(expected);
  });

  it("lengthens only the ids that share a short form, just enough to tell them apart", () => {
    const a = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
    const b = "tkt_9f3a71c4-2d19-4b6e-9c05-8ab3f2e17d90";
    const other = "tkt_11111111-2d18-4b6e-9c05-8ab3f2e17d90";
    const shortened = shortenIds([a, b, other, a]);
    expect(shortened).toEqual(
      new Map([
        [a, "tkt_9f3a71c4-2d18"],
        [b, "tkt_9f3a71c4-2d19"],
      ]),
    );
  });
});
