// The typing thread answers openapi-typescript's alphabetizing compare from one collator: the same order, every time.
import { afterEach, describe, expect, it } from "vitest";
import { compareAlphabetizedKeysWithOneCollator } from "../src/openapi/alphabetize.js";

const KEYS = [
  "200",
  "2XX",
  "10",
  "9",
  "default",
  "Default",
  "item2",
  "item10",
  "Item1",
  "ä",
  "a",
  "z",
  "é",
  "e",
  "",
  "x-extension",
  "_private",
  "$ref",
  "日本",
  "100a",
  "100",
  "1e3",
  "user_id",
  "userId",
  "UserID",
];
const alphabetized = (keys: readonly string[]) => [...keys].sort((a, b) => a.localeCompare(b, "en-us", { numeric: true }));

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("compareAlphabetizedKeysWithOneCollator", () => {
  it("orders keys, and compares each pair, as localeCompare with openapi-typescript's locale and options does", () => {
    const compareAll = () => KEYS.map((a) => KEYS.map((b) => Math.sign(a.localeCompare(b, "en-us", { numeric: true }))));
    const [order, pairs] = [alphabetized(KEYS), compareAll()];
    restore = compareAlphabetizedKeysWithOneCollator();
    expect(alphabetized(KEYS)).toEqual(order);
    expect(compareAll()).toEqual(pairs);
  });

  it("leaves every other call of localeCompare as it was, and puts the original back", () => {
    const original = String.prototype.localeCompare;
    const calls: [string, Intl.CollatorOptions | undefined][] = [
      ["de", { numeric: true }],
      ["en-us", { numeric: true, sensitivity: "base" }],
      ["en-us", undefined],
      ["en-us", { numeric: false }],
    ];
    const before = calls.map(([locale, options]) => KEYS.map((a) => KEYS.map((b) => a.localeCompare(b, locale, options))));
    restore = compareAlphabetizedKeysWithOneCollator();
    expect(String.prototype.localeCompare).not.toBe(original);
    expect(calls.map(([locale, options]) => KEYS.map((a) => KEYS.map((b) => a.localeCompare(b, locale, options))))).toEqual(before);
    restore();
    restore = undefined;
    expect(String.prototype.localeCompare).toBe(original);
  });

  it("throws where the original throws, and is a method of one parameter as the original is", () => {
    const original = String.prototype.localeCompare;
    restore = compareAlphabetizedKeysWithOneCollator();
    const patched = String.prototype.localeCompare;
    const options = { numeric: true };
    expect(() => patched.call(null as unknown as string, "a", "en-us", options)).toThrow(TypeError);
    expect(() => patched.call(undefined as unknown as string, "a", "en-us", options)).toThrow(TypeError);
    expect(() => patched.call(Symbol("a") as unknown as string, "a", "en-us", options)).toThrow(TypeError);
    expect(() => "a".localeCompare(Symbol("b") as unknown as string, "en-us", options)).toThrow(TypeError);
    expect("a".localeCompare(undefined as unknown as string, "en-us", options)).toBe(
      original.call("a", undefined as unknown as string, "en-us", options),
    );
    expect(patched.length).toBe(original.length);
    expect(() => new (patched as unknown as new () => unknown)()).toThrow(TypeError);
  });
});
