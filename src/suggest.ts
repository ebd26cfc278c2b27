/**
 * Levenshtein distance, for "did you mean" hints; once every way through is past `bound`, more than
 * `bound` (the rest of two long names is never compared).
 */
function distance(a: string, b: string, bound: number): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
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
export function closest(word: string, candidates: Iterable<string>, within = Math.max(2, Math.ceil(word.length / 3))): string | undefined {
  if (word.length > LONGEST_MEASURED) return undefined;
  let best: string | undefined;
  let bestDistance = within + 1;
  for (const candidate of candidates) {
    // Two words differ by at least their difference in length: a far longer or shorter one is passed over unmeasured.
    if (Math.abs(candidate.length - word.length) > bestDistance) continue;
    const d = distance(word.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closest(word, candidates);
  return match === undefined ? "" : ` (did you mean "${match}"?)`;
}
