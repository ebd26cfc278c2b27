/** One row of the distance table, reused by every measure: a did-you-mean over thousands of names allocates none. */
let row = new Int32Array(64);

/**
 * Levenshtein distance, for "did you mean" hints; once every way through is past `bound`, more than
 * `bound` (the rest of two long names is never compared).
 */
function distance(a: string, b: string, bound: number): number {
  if (row.length <= b.length) row = new Int32Array(b.length + 1);
  const previous = row;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      least = Math.min(least, previous[j]!);
      diagonal = above;
    }
    if (least > bound) return bound + 1;
  }
  return previous[b.length]!;
}

/** The longest name a did-you-mean measures: one hundreds of characters long is no one's typo of another. */
const LONGEST_MEASURED = 256;

/** The closest candidate within a third of the word's length (or `within` edits), or undefined. */
export const closest = (word: string, candidates: Iterable<string>, within?: number): string | undefined =>
  closestAmong(candidates, within)(word);

/** {@link closest} over the same candidates for many words, each candidate lowered once. */
export function closestAmong(candidates: Iterable<string>, within?: number): (word: string) => string | undefined {
  const lowered = [...candidates].map((candidate) => ({ candidate, lower: candidate.toLowerCase() }));
  // Made at the first word asked about: most annotations ask about none.
  let indexed: ReturnType<typeof deletionIndex> | undefined;
  const index = within !== undefined && within <= MOST_INDEXED_EDITS ? () => (indexed ??= deletionIndex(lowered, within)) : undefined;
  return (word) => {
    if (word.length > LONGEST_MEASURED) return undefined;
    const lower = word.toLowerCase();
    let best: string | undefined;
    let bestDistance = (within ?? Math.max(2, Math.ceil(word.length / 3))) + 1;
    const measured = index ? index().near(lower) : lowered;
    for (const { candidate, lower: candidateLower } of measured) {
      // Two words differ by at least their difference in length: a far longer or shorter one is passed over unmeasured.
      if (Math.abs(candidate.length - word.length) > bestDistance) continue;
      const d = distance(lower, candidateLower, bestDistance);
      if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best;
  };
}

/** The most edits a did-you-mean finds through an index rather than by measuring every candidate. */
const MOST_INDEXED_EDITS = 2;

/**
 * The longest name an index holds or is asked about: its deletions grow with the square of its
 * length, and a longer name is no one's tool name (function-calling APIs take 64 characters at most).
 */
const LONGEST_INDEXED = 64;

interface Lowered {
  candidate: string;
  lower: string;
}

/**
 * Candidates by every word their deletions of up to `edits` characters make: two words within
 * `edits` edits make one word alike (a substitution is a deletion from each), so a word's own
 * deletions find every candidate that near, and only a few others, to measure.
 */
function deletionIndex(candidates: readonly Lowered[], edits: number) {
  const byDeletion = new Map<string, Lowered[]>();
  for (const entry of candidates) {
    if (entry.lower.length > LONGEST_INDEXED) continue;
    for (const deleted of deletions(entry.lower, edits)) {
      const alike = byDeletion.get(deleted);
      if (alike) alike.push(entry);
      else byDeletion.set(deleted, [entry]);
    }
  }
  return {
    near: (word: string): Lowered[] =>
      word.length > LONGEST_INDEXED ? [] : [...new Set([...deletions(word, edits)].flatMap((deleted) => byDeletion.get(deleted) ?? []))],
  };
}

/** A word and each word made by deleting up to `edits` of its characters. */
function deletions(word: string, edits: number): Set<string> {
  const all = new Set([word]);
  let level = [word];
  for (let edit = 0; edit < edits; edit++) {
    const next: string[] = [];
    for (const shorter of level)
      for (let i = 0; i < shorter.length; i++) {
        const deleted = shorter.slice(0, i) + shorter.slice(i + 1);
        if (!all.has(deleted)) {
          all.add(deleted);
          next.push(deleted);
        }
      }
    level = next;
  }
  return all;
}

export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closest(word, candidates);
  return match === undefined ? "" : ` (did you mean "${match}"?)`;
}
