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
  String.prototype.localeCompare = function localeCompare(
    this: string,
    that: string,
    locales?: string | string[],
    options?: Intl.CollatorOptions,
  ): number {
    return locales === "en-us" && isNumericOnly(options)
      ? collator.compare(String(this), String(that))
      : original.call(this, that, locales, options);
  };
  return () => {
    String.prototype.localeCompare = original;
  };
}

function isNumericOnly(options: Intl.CollatorOptions | undefined): boolean {
  if (options === null || typeof options !== "object" || options.numeric !== true) return false;
  for (const key in options) if (key !== "numeric") return false;
  return Object.getPrototypeOf(options) === Object.prototype;
}
