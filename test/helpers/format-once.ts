// A setup file of `npm test`: prettier formats each text once per test worker. It is a pure function
// of the text and its options (the file path among them), and most of what the tests generate is the
// same runtime modules; formatting it anew for every generate was a large share of the suite's time.
import type * as Prettier from "prettier";
import { vi } from "vitest";

vi.mock("prettier", async (importOriginal) => {
  const prettier = await importOriginal<typeof Prettier>();
  const formatted = new Map<string, Promise<string>>();
  const format: typeof prettier.format = (text, options) => {
    const key = `${JSON.stringify(options ?? null)}\0${text}`;
    let result = formatted.get(key);
    if (!result) {
      result = prettier.format(text, options);
      formatted.set(key, result);
    }
    return result;
  };
  return { ...prettier, format };
});
