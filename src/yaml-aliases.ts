/**
 * How far YAML aliases may blow a document up. Parsers share one object for every alias of an
 * anchor, so parsing stays cheap; whatever walks the result as a tree (bundling, schema reading,
 * JSON output) pays for every copy, and ten anchors of ten aliases each are ten billion copies.
 * The rule counts what aliases add when every one is written out, not how often an anchor is
 * used: an anchor used a thousand times for a small block is fine, nine nested levels are not.
 */
export const MAX_ALIAS_GROWTH = 100_000;

const isContainer = (value: unknown): value is object => typeof value === "object" && value !== null;

/**
 * The number of values (objects, arrays, scalars) in a parsed document as written, each shared
 * object counted once, and as expanded, each shared object counted wherever it is used.
 * Linear in the written size; an object inside itself is counted once.
 */
export function aliasExpansion(root: unknown): { written: number; expanded: number } {
  if (!isContainer(root)) return { written: 1, expanded: 1 };
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  let written = 0;
  // Post-order without recursion, so a deeply nested document cannot overflow the stack.
  const stack: { node: object; childrenDone: boolean }[] = [{ node: root, childrenDone: false }];
  while (stack.length > 0) {
    const { node, childrenDone } = stack.pop()!;
    if (sizes.has(node)) continue;
    const children = Object.values(node);
    if (!childrenDone) {
      if (open.has(node)) continue;
      open.add(node);
      stack.push({ node, childrenDone: true });
      for (const child of children)
        if (isContainer(child) && !sizes.has(child) && !open.has(child)) stack.push({ node: child, childrenDone: false });
      continue;
    }
    let size = 1;
    written += 1;
    for (const child of children) {
      if (!isContainer(child)) {
        size += 1;
        written += 1;
      } else size += sizes.get(child) ?? 1;
    }
    sizes.set(node, size);
    open.delete(node);
  }
  return { written, expanded: sizes.get(root)! };
}

/** True when aliases add more than MAX_ALIAS_GROWTH values, or more than the document holds as written if that is larger. */
export function aliasesOverLimit(root: unknown): boolean {
  const { written, expanded } = aliasExpansion(root);
  return expanded - written > Math.max(MAX_ALIAS_GROWTH, written);
}
