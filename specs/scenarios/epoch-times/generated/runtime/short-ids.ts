// Reading parsed JSON without trusting its shape or its prototype.

// Short ids: `tkt_9f3a71c4` for `tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90`, `ch_3KpXb2Lk` for
// `ch_3KpXb2Lkd9cQ2Tfa1B5e7LmN`; lengthened where two would collide.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** How far into an opaque id its prefix (`ch_`, `cs_test_`, `gid://shop/Product/`) may end. */
const PREFIX_END = 24;
/** Characters of an opaque id a short form keeps after its prefix: 47 bits of a base-62 id, 32 of a hex one. */
const KEPT_AFTER_PREFIX = 8;
/** Characters a short form keeps of an opaque id without a prefix: 10, so that a Twilio SID keeps 8 hex digits after its `SM`. */
const KEPT_WITHOUT_PREFIX = 10;
/** The fewest characters a cut must take off an opaque id: a shorter cut saves less than the ambiguity it risks. */
const LEAST_CUT = 6;

/**
 * The short form of an id: where it holds a UUID, the text up to the UUID's first eight digits
 * (`tkt_9f3a71c4-2d18-4b6e-9c05-8ab3f2e17d90` to `tkt_9f3a71c4`); else, for an opaque id of
 * printable ASCII, {@link opaqueFormLength} characters of it (`ch_3KpXb2Lkd9cQ2Tfa1B5e7LmN` to
 * `ch_3KpXb2Lk`, a Twilio SID to `SM` and 8 hex digits, a snowflake to its first 10 digits), when
 * that cuts at least {@link LEAST_CUT} characters; else the id whole.
 */
export function shortId(id: string): string {
  const dash = id.indexOf("-");
  return shortForm(id, dash, uuidDigits(id, dash));
}

/** {@link shortId}, given the id's first dash and what {@link uuidDigits} found there. */
export function shortForm(id: string, dash: number, digits: number): string {
  // Most ids are a prefix and a UUID: their shape is checked at the first dash before any regex.
  return digits >= 0 ? id.slice(0, dash) : shortFormOfOtherShape(id);
}

function shortFormOfOtherShape(id: string): string {
  const match = UUID.exec(id);
  if (match) return id.slice(0, match.index + 8);
  const length = opaqueFormLength(id);
  return length <= id.length - LEAST_CUT && isPrintableAscii(id)
    ? id.slice(0, length)
    : id;
}

/**
 * How long an opaque id's short form is: its prefix, through the last separator (`_ - . : /`)
 * among its first {@link PREFIX_END} characters, then {@link KEPT_AFTER_PREFIX} characters; or,
 * without a prefix, {@link KEPT_WITHOUT_PREFIX}. It depends on those first characters alone, so
 * every form that begins with them, plain or lengthened, is at least this long.
 */
function opaqueFormLength(text: string): number {
  let prefix = 0;
  const end = Math.min(text.length, PREFIX_END);
  for (let i = 0; i < end; i++)
    if (isSeparator(text.charCodeAt(i))) prefix = i + 1;
  return prefix > 0 ? prefix + KEPT_AFTER_PREFIX : KEPT_WITHOUT_PREFIX;
}

function isSeparator(code: number): boolean {
  return (
    code === 95 /* _ */ ||
    code === 45 /* - */ ||
    code === 46 /* . */ ||
    code === 58 /* : */ ||
    code === 47 /* / */
  );
}

/** Whether every character of `text` is printable ASCII, no space: a cut then never splits a character or a word. */
function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * The number the eight hex digits before the first dash, at `dash`, write when the id is a prefix
 * and a UUID (`tkt_9f3a71c4-2d18-4b6e-...`), or -1 for an id of another shape.
 */
export function uuidDigits(id: string, dash: number): number {
  if (
    dash < 8 ||
    id.length < dash + 28 ||
    id.charCodeAt(dash + 5) !== 45 /* - */ ||
    !isHex(id, dash + 1, dash + 5) ||
    (dash > 8 && isHex(id, dash - 9, dash - 8))
  )
    return -1;
  return eightHexDigits(id, dash - 8);
}

/** The number the eight hex digits at `from` write, or -1. */
export function eightHexDigits(text: string, from: number): number {
  if (from < 0) return -1;
  let value = 0;
  for (let i = from; i < from + 8; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

function hexDigit(code: number): number {
  const lower = code | 0x20;
  return code >= 48 && code <= 57
    ? code - 48
    : lower >= 97 && lower <= 102
      ? lower - 87
      : -1;
}

function isHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++)
    if (hexDigit(text.charCodeAt(i)) < 0) return false;
  return true;
}

/**
 * Whether `text` could be a form that {@link shortId} or {@link shortenIds} gives some other id: each
 * begins with that id's plain short form. A UUID's ends in eight hex digits. An opaque id's is as
 * long as {@link opaqueFormLength} of its first characters, which a longer id beginning with `text`
 * shares with it (a separator after them would make that form longer than `text`), and is printable
 * ASCII. Text that is neither is no other id's form.
 */
export function mayBeShortForm(text: string): boolean {
  return (
    hasEightHexDigits(text) ||
    (opaqueFormLength(text) <= text.length && isPrintableAscii(text))
  );
}

function hasEightHexDigits(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (hexDigit(text.charCodeAt(i)) < 0) run = 0;
    else if (++run === 8) return true;
  }
  return false;
}

/**
 * Whether `short` is `id` or a short form of it that a result can give the model: `id` cut no
 * shorter than {@link shortId} cuts it. Use it when the model passes an id back to a tool, on the
 * rows that `id LIKE short || '%'` finds; a truncated or made-up prefix matches nothing.
 */
export function matchesShortId(id: string, short: string): boolean {
  return (
    id === short || (id.startsWith(short) && short.length >= shortId(id).length)
  );
}

/**
 * Short forms for the ids of one result that would collide, lengthened just enough to tell them
 * apart. Ids missing from the map keep their plain short form: the common case costs one pass.
 */
export function shortenIds(ids: Iterable<string>): Map<string, string> {
  const firstBy = new Map<string, string>();
  // Grouped by short form, each group a Set: a page of ids sharing one short form costs time linear in their number.
  const collisions = new Map<string, Set<string>>();
  for (const id of ids) {
    const short = shortId(id);
    const first = firstBy.get(short);
    if (first === undefined) firstBy.set(short, id);
    else if (first !== id) {
      const group = collisions.get(short);
      if (group) group.add(id);
      else collisions.set(short, new Set([first, id]));
    }
  }
  const result = new Map<string, string>();
  for (const [short, group] of collisions) {
    const length = distinguishingLength(group, short.length);
    for (const id of group) {
      let cut = length;
      while (cut < id.length && id[cut - 1] === "-") cut++;
      const longer = id.slice(0, cut);
      // A lengthened form must not be some other id's plain short form; then only the full id is safe.
      const owner = firstBy.get(longer);
      result.set(id, owner !== undefined && owner !== id ? id : longer);
    }
  }
  return result;
}

/**
 * The fewest leading characters that tell distinct ids apart, given that they agree on their first
 * `from`: one past their longest common prefix. Read one position at a time, and only among ids not
 * yet told apart, so that the work is the characters it takes to tell each id apart, never a
 * rereading of every id's prefix for each added character.
 */
function distinguishingLength(ids: Iterable<string>, from: number): number {
  let undecided: string[][] = [[...ids]];
  let at = from;
  while (undecided.length > 0) {
    const next: string[][] = [];
    for (const alike of undecided) {
      const byCharacter = new Map<number, string[]>();
      for (const id of alike) {
        // An id that ends here differs from every other: no two ids of a group are equal.
        if (at >= id.length) continue;
        const code = id.charCodeAt(at);
        const same = byCharacter.get(code);
        if (same) same.push(id);
        else byCharacter.set(code, [id]);
      }
      for (const same of byCharacter.values())
        if (same.length > 1) next.push(same);
    }
    undecided = next;
    at++;
  }
  return at;
}
