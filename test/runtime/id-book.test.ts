// The id book turns short ids back into full ones, once createTools uses it; bounded, ambiguity kept.
import { describe, expect, it, vi } from "vitest";

const A = "tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90";
const B = "tkt_9f3a71c4-2d19-4b6e-9c05-8ab3f2e17d90";

describe("the id book", () => {
  // One test: the book is the module's own state, in the order a process meets it.
  it("records nothing until used, then maps short forms back, marks a shared one ambiguous, and forgets the oldest", async () => {
    // A fresh copy of the module: other test files in this worker may already have put the shared one to use.
    vi.resetModules();
    const { fullId, handOut, ID_BOOK_SIZE, useIdBook } = await import("../../templates/runtime/id-book.js");
    expect(handOut("tkt_9f3a71c4", A)).toBe("tkt_9f3a71c4");
    expect(fullId("tkt_9f3a71c4")).toBe("tkt_9f3a71c4");

    useIdBook();
    handOut("tkt_9f3a71c4", A);
    expect(fullId("tkt_9f3a71c4")).toBe(A);
    expect(fullId("usr_never_given")).toBe("usr_never_given");

    handOut("tkt_9f3a71c4", B);
    expect(fullId("tkt_9f3a71c4")).toEqual({ ambiguous: "tkt_9f3a71c4" });

    handOut("first", "first-full");
    for (let i = 0; i < ID_BOOK_SIZE; i++) handOut(`s${i}`, `s${i}-full`);
    expect(fullId("first")).toBe("first");
    expect(fullId(`s${ID_BOOK_SIZE - 1}`)).toBe(`s${ID_BOOK_SIZE - 1}-full`);
  });
});
