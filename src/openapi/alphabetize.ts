/**
 * openapi-typescript sorts every object's keys it types with `a.localeCompare(b, "en-us", { numeric: true })`
 * when asked to alphabetize. V8 builds an ICU collator for each such call: on TIDAL, a tenth of a
 * second and much of the typing thread's garbage. ECMA-402 defines that call as the compare of an
 * `Intl.Collator` with the same locales and options, so the typing thread answers it from one
 * collator, made once; every other call of localeCompare goes on as before. Only that thread's
 * String.prototype is changed, and the order, so the source types, stay the same. Returns what puts
 * the original back.
 */
export function compareAlphabetizedKeysWithOneCollator(): () => void {
  const original = String.prototype.localeCompare;
  const collator = new Intl.Collator("en-us", { numeric: true });
  // A method, as the original is: one declared parameter, and not a constructor.
  const { localeCompare } = {
    localeCompare(this: unknown, that: unknown, ...rest: [locales?: string | string[], options?: Intl.CollatorOptions]): number {
      const [locales, options] = rest;
      if (locales !== "en-us" || !isNumericOnly(options)) return original.call(this, that as string, locales, options);
      // As the original converts them: a null or undefined `this`, or a Symbol, throws a TypeError.
      if (this === null || this === undefined) throw new TypeError("String.prototype.localeCompare called on null or undefined");
      return collator.compare(`${this as string}`, `${that as string}`);
    },
  };
  String.prototype.localeCompare = localeCompare as typeof original;
  return () => {
    String.prototype.localeCompare = original;
  };
}

function isNumericOnly(options: Intl.CollatorOptions | undefined): boolean {
  if (options === null || typeof options !== "object" || options.numeric !== true) return false;
  for (const key in options) if (key !== "numeric") return false;
  return Object.getPrototypeOf(options) === Object.prototype;
}
