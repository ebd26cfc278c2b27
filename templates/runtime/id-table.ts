// A table keyed by ids that hashes a few characters of each id, not all of them.

/**
 * The most character positions a table reads; past them, ids it cannot tell apart go to a Map.
 * Every position learned multiplies the hashes ids can have, so a page of 100,000 random hex ids
 * needs about nine.
 */
const MOST_POSITIONS = 12;

/** The size a table starts at: a power of two. */
const FIRST_SIZE = 64;

/**
 * The most slots a lookup steps through before the table moves into a Map. With the table at most
 * half full, ids whose hashes spread never come near it; ids made to share a hash would otherwise
 * make each lookup step through all of them.
 */
const LONGEST_PROBE = 64;

/** Mixed into every hash, and drawn anew in each process, so that ids cannot be made to share one. */
const SEED = (Math.random() * 0x100000000) | 0;

/**
 * Ids to values, as a Map, for the ids of one page. Each id of a parsed page is a string no one has
 * hashed: a Map hashes every character of each one, which cost a fifth of projecting a page. This
 * table hashes the id's length and the characters at a few positions, learnt from the ids
 * themselves: when two ids hash alike, the first position they differ at is read from then on.
 * Which ids match is never a guess: a key is found only where it equals the id. Ids that still
 * hash alike at {@link MOST_POSITIONS} positions, or a lookup longer than {@link LONGEST_PROBE},
 * move the table into a Map.
 */
export class IdTable<V> {
  private keys: (string | undefined)[] = new Array<string | undefined>(
    FIRST_SIZE,
  ).fill(undefined);
  private values: (V | undefined)[] = new Array<V | undefined>(FIRST_SIZE).fill(
    undefined,
  );
  private hashes = new Int32Array(FIRST_SIZE);
  private count = 0;
  /** The character positions hashed: an index from the start when at least 0, from the end when below. */
  private positions: number[] = [];
  private map: Map<string, V> | undefined = undefined;

  get(id: string): V | undefined {
    if (this.map !== undefined) return this.map.get(id);
    const hash = this.hashOf(id);
    const keys = this.keys;
    const mask = keys.length - 1;
    for (let at = hash & mask, probes = 0; ; at = (at + 1) & mask) {
      const key = keys[at];
      if (key === undefined) return undefined;
      if (this.hashes[at] === hash && key === id) return this.values[at];
      if (++probes > LONGEST_PROBE) {
        this.moveIntoMap();
        return this.map!.get(id);
      }
    }
  }

  set(id: string, value: V): void {
    if (this.map !== undefined) {
      this.map.set(id, value);
      return;
    }
    if ((this.count + 1) * 2 > this.keys.length)
      this.rehash(this.keys.length * 2);
    const hash = this.hashOf(id);
    const keys = this.keys;
    const mask = keys.length - 1;
    let at = hash & mask;
    for (let key = keys[at], probes = 0; key !== undefined; key = keys[at]) {
      if (++probes > LONGEST_PROBE) {
        this.moveIntoMap();
        this.map!.set(id, value);
        return;
      }
      if (this.hashes[at] === hash) {
        if (key === id) {
          this.values[at] = value;
          return;
        }
        if (this.alikeWhereRead(key, id)) {
          this.learnFrom(key, id);
          this.set(id, value);
          return;
        }
      }
      at = (at + 1) & mask;
    }
    this.place(at, id, hash, value);
  }

  private hashOf(id: string): number {
    const length = id.length;
    const positions = this.positions;
    let hash = Math.imul(length ^ SEED, 0x9e3779b1);
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i]!;
      const at = position < 0 ? length + position : position;
      if (at >= 0 && at < length)
        hash = Math.imul(hash ^ id.charCodeAt(at), 0x01000193);
    }
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x45d9f3b);
    return hash ^ (hash >>> 13);
  }

  /** Whether two ids of a hash have the same length and the same character at every position read. */
  private alikeWhereRead(one: string, other: string): boolean {
    const length = one.length;
    if (other.length !== length) return false;
    for (const position of this.positions) {
      const at = position < 0 ? length + position : position;
      if (at >= 0 && at < length && one.charCodeAt(at) !== other.charCodeAt(at))
        return false;
    }
    return true;
  }

  /**
   * Reads from now on the first position two ids {@link alikeWhereRead} differ at, and hashes the
   * table again; or, with {@link MOST_POSITIONS} read already, moves it into a Map.
   */
  private learnFrom(one: string, other: string): void {
    if (this.positions.length >= MOST_POSITIONS) {
      this.moveIntoMap();
      return;
    }
    let differ = 0;
    while (one.charCodeAt(differ) === other.charCodeAt(differ)) differ++;
    // From the end when nearer to it: ids of one shape but several lengths end alike more often than they begin alike.
    this.positions.push(differ * 2 < one.length ? differ : differ - one.length);
    this.rehash(this.keys.length);
  }

  private place(at: number, id: string, hash: number, value: V): void {
    this.keys[at] = id;
    this.hashes[at] = hash;
    this.values[at] = value;
    this.count++;
  }

  /** Hashes every key again into a table of `size` slots: no two keys are alike where read, so none is compared. */
  private rehash(size: number): void {
    const { keys, values } = this;
    this.keys = new Array<string | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.count = 0;
    const mask = size - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === undefined) continue;
      const hash = this.hashOf(key);
      let at = hash & mask;
      while (this.keys[at] !== undefined) at = (at + 1) & mask;
      this.place(at, key, hash, values[i] as V);
    }
  }

  private moveIntoMap(): void {
    const map = new Map<string, V>();
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i];
      if (key !== undefined) map.set(key, this.values[i] as V);
    }
    this.map = map;
    this.keys = [];
    this.values = [];
    this.hashes = new Int32Array(0);
  }
}
