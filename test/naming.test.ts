// Identifiers and file names generated from tool and resource names: readable when they can be, short enough
// for a filesystem, never a Windows device name, and distinct for names that differ in more than case and punctuation.
import { describe, expect, it } from "vitest";
import { fileStem, MAX_FILE_STEM, pascalCase, singular } from "../src/naming.js";

describe("fileStem", () => {
  it("turns a name into a kebab-case stem", () => {
    expect(fileStem("search_tickets")).toBe("search-tickets");
    expect(fileStem("getURL")).toBe("get-url");
  });

  it("cuts a long name and adds a hash of the whole name, so names differing only past the cut stay apart", () => {
    const start = "list_tasks_of_the_long_named_project_".repeat(8);
    const first = fileStem(`${start}first`);
    const second = fileStem(`${start}second`);
    expect(first.length).toBeLessThanOrEqual(MAX_FILE_STEM);
    expect(second.length).toBeLessThanOrEqual(MAX_FILE_STEM);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^list-tasks-of-the-long-named-project-.*-[0-9a-f]{8}$/);
    expect(fileStem(`${start}first`)).toBe(first);
  });

  it("keeps a name of exactly the limit as it is", () => {
    const name = "a".repeat(MAX_FILE_STEM);
    expect(fileStem(name)).toBe(name);
    expect(fileStem(`${name}a`)).toMatch(/-[0-9a-f]{8}$/);
  });

  it("gives names Windows reserves for devices a hash", () => {
    for (const name of ["con", "CON", "aux", "nul", "prn", "com1", "lpt9"])
      expect(fileStem(name)).toMatch(new RegExp(`^${name.toLowerCase()}-[0-9a-f]{8}$`));
    expect(fileStem("console")).toBe("console");
  });
});

describe("pascalCase", () => {
  it("drops accents", () => {
    expect(pascalCase("créé_par")).toBe("CreePar");
  });

  it("keeps names without an ASCII form apart with a hash of the whole name", () => {
    const task = pascalCase("任务");
    const user = pascalCase("用户");
    expect(task).toMatch(/^Unnamed_[0-9a-f]{8}$/);
    expect(user).toMatch(/^Unnamed_[0-9a-f]{8}$/);
    expect(task).not.toBe(user);
    expect(fileStem("任务")).not.toBe(fileStem("用户"));
    expect(pascalCase("ticket_任务")).toMatch(/^Ticket_[0-9a-f]{8}$/);
  });
});

describe("singular", () => {
  it("undoes the plurals a path's collections are written in, keeping a word that ends in s by itself", () => {
    const cases: [string, string][] = [
      ["tickets", "ticket"],
      ["policies", "policy"],
      ["boxes", "box"],
      ["addresses", "address"],
      ["matches", "match"],
      ["cases", "case"],
      ["databases", "database"],
      ["responses", "response"],
      ["enterprises", "enterprise"],
      ["knowledge_bases", "knowledge_base"],
      ["statuses", "status"],
      ["analyses", "analysis"],
      ["aliases", "alias"],
      ["movies", "movie"],
      ["people", "person"],
      ["children", "child"],
      ["team_people", "team_person"],
      ["indices", "index"],
      ["ids", "id"],
      ["status", "status"],
      ["address", "address"],
      ["change_status", "change_status"],
      ["data", "data"],
      ["media", "media"],
      ["series", "series"],
    ];
    expect(cases.map(([plural]) => [plural, singular(plural)])).toEqual(cases);
  });
});
