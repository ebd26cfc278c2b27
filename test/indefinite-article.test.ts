// Generated comments and messages name resources and fields from the spec with "a" or "an": by
// sound, not spelling, so no "an user" or "a hour".
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indefiniteArticle, withArticle } from "../src/indefinite-article.js";
import { ROOT } from "./helpers/pipeline.js";

describe("the indefinite article", () => {
  it.each([
    ["user", "a"],
    ["hour", "an"],
    ["id", "an"],
    ["uuid", "a"],
    ["organization", "an"],
    ["URL", "a"],
    ["url", "a"],
    ["ticket", "a"],
    ["incident", "an"],
    ["UUID", "a"],
    ["ID", "an"],
    ["SLA", "an"],
    ["sla", "an"],
    ["HTTP", "an"],
    ["http_request", "an"],
    ["API", "an"],
    ["api_key", "an"],
    ["S3 bucket", "an"],
    ["X", "an"],
    ["unit", "a"],
    ["union", "a"],
    ["unique_name", "a"],
    ["usage", "a"],
    ["utility", "a"],
    ["uninstall", "an"],
    ["update", "an"],
    ["upload", "an"],
    ["utterance", "an"],
    ["umbrella", "an"],
    ["euro_price", "a"],
    ["one_time_code", "a"],
    ["oneOf", "a"],
    ["online_order", "an"],
    ["honest_review", "an"],
    ["heir", "an"],
    ["hotel", "a"],
    ["host", "a"],
    ["userProfile", "a"],
    ["User", "a"],
    ["Organization", "an"],
    ["ObjectID", "an"],
    ["xml_feed", "an"],
    ["year", "a"],
    ["8-hour shift", "an"],
    ["11", "an"],
    ["18th", "an"],
    ["1", "a"],
    ["100", "a"],
    ["110", "a"],
    ["`item`", "an"],
  ] as const)("%s takes %s", (phrase, article) => {
    expect(indefiniteArticle(phrase)).toBe(article);
  });

  it("writes the phrase after its article", () => {
    expect(withArticle("user")).toBe("a user");
    expect(withArticle("hour")).toBe("an hour");
  });

  it("names the bundled example's user resource with it", () => {
    const user = readFileSync(join(ROOT, "generated/support/resources/user.ts"), "utf8");
    expect(user).toContain("/** A user record as the API sends it. */");
    expect(user).not.toMatch(/\ban user\b/);
  });
});
