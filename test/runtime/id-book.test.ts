// The id book turns short ids back into full ones, once createTools uses it; bounded, ambiguity kept.
import { describe, expect, it, vi } from "vitest";

const A = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const B = "tkt_9f3a71c4-2d19-4b6e-9c05-8ab3f2e17d90";
/** The kind of id the tests hand out and look up: the `id` field of resource `ticket`. */
const KIND = "ticket.id";
const KINDS = [KIND];

describe("the id book", () => {
  // One test: the book is the module's own state, in the order a process meets it.
  it("records nothing until used, then maps short forms back, marks a shared one ambiguous, and forgets the oldest", async () => {
    // A fresh copy of the module: other test files in this worker may already have put the shared one to use.
    vi.resetModules();
    const { fullId, handOut, ID_BOOK_SIZE, useIdBook } = await import("../../templates/runtime/id-book.js");
    expect(handOut("tkt_9f3a71c4", A, KIND)).toBe("tkt_9f3a71c4");
    expect(fullId("tkt_9f3a71c4", KINDS)).toBe("tkt_9f3a71c4");

    useIdBook();
    handOut("tkt_9f3a71c4", A, KIND);
    expect(fullId("tkt_9f3a71c4", KINDS)).toBe(A);
    expect(fullId("usr_never_given", KINDS)).toBe("usr_never_given");

    handOut("tkt_9f3a71c4", B, KIND);
    expect(fullId("tkt_9f3a71c4", KINDS)).toEqual({ ambiguous: "tkt_9f3a71c4" });

    handOut("first", "first-full", KIND);
    for (let i = 0; i < ID_BOOK_SIZE; i++) handOut(`s${i}`, `s${i}-full`, KIND);
    expect(fullId("first", KINDS)).toBe("first");
    expect(fullId(`s${ID_BOOK_SIZE - 1}`, KINDS)).toBe(`s${ID_BOOK_SIZE - 1}-full`);
  });

  it("holds a projection's hand-outs back, across parts, until they are handed out together", async () => {
    vi.resetModules();
    const { fullId, handOut, handOutHeld, holdingHandOuts, useIdBook } = await import("../../templates/runtime/id-book.js");
    useIdBook();
    const held: string[] = [];
    expect(holdingHandOuts(held, () => handOut("tkt_9f3a71c4", A, KIND))).toBe("tkt_9f3a71c4");
    holdingHandOuts(held, () => handOut("usr_1", "usr_1-full", KIND));
    expect(fullId("tkt_9f3a71c4", KINDS)).toBe("tkt_9f3a71c4");
    expect(fullId("usr_1", KINDS)).toBe("usr_1");
    handOutHeld(held);
    expect(fullId("tkt_9f3a71c4", KINDS)).toBe(A);
    expect(fullId("usr_1", KINDS)).toBe("usr_1-full");
  });

  it("forgets exactly the least recently used short forms, page after page of new ids", async () => {
    vi.resetModules();
    const { fullId, handOut, handingOutLater, ID_BOOK_SIZE, useIdBook } = await import("../../templates/runtime/id-book.js");
    useIdBook();
    const page = (name: string, count = ID_BOOK_SIZE) =>
      handingOutLater(
        () => {
          for (let i = 0; i < count; i++) handOut(`${name}${i}`, `${name}${i}-full`, KIND);
        },
        () => true,
      );
    page("a");
    // Looked up, a0 becomes the most recent, and outlives every other id of its page.
    expect(fullId("a0", KINDS)).toBe("a0-full");
    page("b", ID_BOOK_SIZE - 1);
    expect(fullId("a0", KINDS)).toBe("a0-full");
    expect(fullId("a1", KINDS)).toBe("a1");
    expect(fullId(`a${ID_BOOK_SIZE - 1}`, KINDS)).toBe(`a${ID_BOOK_SIZE - 1}`);
    expect(fullId(`b${ID_BOOK_SIZE - 2}`, KINDS)).toBe(`b${ID_BOOK_SIZE - 2}-full`);
    // Three more pages: many evictions, and the Map compacted under the kept iterator.
    page("c");
    page("d");
    handOut("d5", "d5-full", KIND);
    page("e");
    expect(fullId("d5", KINDS)).toBe("d5");
    expect(fullId(`e${ID_BOOK_SIZE - 1}`, KINDS)).toBe(`e${ID_BOOK_SIZE - 1}-full`);
    handOut("f0", "f0-full", KIND);
    expect(fullId("e0", KINDS)).toBe("e0");
    expect(fullId("e1", KINDS)).toBe("e1-full");
    expect(fullId("f0", KINDS)).toBe("f0-full");
  });
});
