import { createRequire } from "node:module";
import type TypeScript from "typescript";

/**
 * TypeScript itself, through `require`: importing it as an ES module makes Node scan its 9 MB of
 * CommonJS for export names first, a quarter of a second spent for nothing.
 */
export const typescript = (): typeof TypeScript => createRequire(import.meta.url)("typescript") as typeof TypeScript;

/** A construct the projector's own TypeScript never uses, which has no JavaScript left once its types are blanked. */
export class UnstrippableSyntax extends Error {}

/**
 * The module as JavaScript, its types blanked out: every character of a type, a type-only import
 * or declaration, an `as` or a `!` becomes a space, and the rest stays where it was. Only the
 * parser runs, not TypeScript's emitter, which is most of the cost of transpiling (and all of it
 * is spent again on every run of init). It covers what the generated modules and the runtime
 * template are written in: modules whose type-only imports and exports say `type`, no enums or
 * namespaces (those throw {@link UnstrippableSyntax}); a parameter property gets its field and
 * assignment written in, as TypeScript does.
 */
export function stripTypes(ts: typeof TypeScript, text: string, fileName: string): string {
  // Doc comments are left unparsed (TypeScript 5.3 on): they are blanked or kept as text alike.
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode?.ParseNone };
  // Without parent links (a fifth of the parse): the walk below passes each node's parent along.
  const source = ts.createSourceFile(fileName, text, options, false, ts.ScriptKind.TS);
  const edits: Edit[] = [];
  const blank = (start: number, end: number, joinLines = false): void => {
    edits.push({ start, end, joinLines });
  };
  const insert = (at: number, inserted: string) => edits.push({ start: at, end: at, joinLines: false, inserted });
  const blankNode = (node: TypeScript.Node) => blank(node.getStart(source), node.end);
  const unsupported = (node: TypeScript.Node, what: string): never => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    throw new UnstrippableSyntax(`${fileName}:${line + 1}: ${what} has no JavaScript once its types are blanked`);
  };
  /** From the `:` before a type annotation to the type's end. */
  const blankAnnotation = (type: TypeScript.TypeNode, joinLines = false) => {
    let colon = type.pos - 1;
    while (colon > 0 && text[colon] !== ":") colon--;
    blank(colon, type.end, joinLines);
  };
  /** `<...>` around type parameters or arguments: the list's range lies between the brackets. */
  const blankAngles = (list: TypeScript.NodeArray<TypeScript.Node>) => {
    let open = list.pos - 1;
    while (open > 0 && text[open] !== "<") open--;
    let close = list.end;
    while (close < text.length && text[close] !== ">") close++;
    blank(open, close + 1);
  };
  /** A list element with the comma after it, if any: what is left is a list, perhaps with a trailing comma. */
  const blankElement = (element: TypeScript.Node) => {
    let after = element.end;
    while (after < text.length && /\s/.test(text[after]!)) after++;
    blank(element.getStart(source), text[after] === "," ? after + 1 : element.end);
  };
  const TYPE_MODIFIERS = new Set([
    ts.SyntaxKind.PublicKeyword,
    ts.SyntaxKind.PrivateKeyword,
    ts.SyntaxKind.ProtectedKeyword,
    ts.SyntaxKind.ReadonlyKeyword,
    ts.SyntaxKind.AbstractKeyword,
    ts.SyntaxKind.OverrideKeyword,
  ]);
  const hasModifier = (node: TypeScript.Node, kind: TypeScript.SyntaxKind) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

  /**
   * `constructor(readonly value: unknown)` as TypeScript writes it for ES2022: a field declared
   * first in the class, assigned first thing in the constructor (after `super(...)`).
   */
  const declareParameterProperties = (declaration: TypeScript.ConstructorDeclaration, owner: TypeScript.ClassLikeDeclaration) => {
    const names = declaration.parameters
      .filter((p) => ts.getModifiers(p)?.some((m) => TYPE_MODIFIERS.has(m.kind)))
      .map((p) => (ts.isIdentifier(p.name) ? p.name.text : unsupported(p, "a destructured parameter property")));
    if (names.length === 0) return;
    const body = declaration.body ?? unsupported(declaration, "a constructor overload with parameter properties");
    const first = body.statements[0];
    const callsSuper =
      first &&
      ts.isExpressionStatement(first) &&
      ts.isCallExpression(first.expression) &&
      first.expression.expression.kind === ts.SyntaxKind.SuperKeyword;
    insert(owner.members.pos, names.map((name) => `${name}; `).join(""));
    insert(callsSuper ? first.end : body.getStart(source) + 1, names.map((name) => ` this.${name} = ${name};`).join(""));
  };

  /** A declaration or import with no JavaScript in it at all. */
  const typesOnly = (node: TypeScript.Node, parent: TypeScript.Node): boolean => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      // `import { type A } from "x"` keeps no binding, and TypeScript drops it whole.
      const allTypes = !clause?.name && named !== undefined && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
      return clause?.isTypeOnly === true || (allTypes && named.elements.length > 0);
    }
    if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly);
      return node.isTypeOnly || (allTypes && clause.elements.length > 0);
    }
    return (
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      hasModifier(node, ts.SyntaxKind.DeclareKeyword) ||
      (ts.isFunctionDeclaration(node) && !node.body) ||
      (ts.isMethodDeclaration(node) && !node.body) ||
      (ts.isPropertyDeclaration(node) && hasModifier(node, ts.SyntaxKind.AbstractKeyword)) ||
      (ts.isIndexSignatureDeclaration(node) && ts.isClassLike(parent)) ||
      (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword)
    );
  };

  const refuseUnsupported = (node: TypeScript.Node) => {
    if (ts.isEnumDeclaration(node)) unsupported(node, "an enum");
    if (ts.isModuleDeclaration(node)) unsupported(node, "a namespace");
    if (ts.isImportEqualsDeclaration(node)) unsupported(node, "`import =`");
    if (ts.isExportAssignment(node) && node.isExportEquals) unsupported(node, "`export =`");
    if (ts.isTypeAssertionExpression(node)) unsupported(node, "an angle-bracket type assertion");
  };

  /** The type parts of a node that is JavaScript itself: annotations, modifiers, `?` and `!`, `<...>`. */
  const blankTypeParts = (node: TypeScript.Node, parent: TypeScript.Node) => {
    if (ts.isConstructorDeclaration(node) && ts.isClassLike(parent)) declareParameterProperties(node, parent);
    if (ts.canHaveModifiers(node))
      for (const modifier of ts.getModifiers(node) ?? []) if (TYPE_MODIFIERS.has(modifier.kind)) blankNode(modifier);
    const optional = ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node);
    if (optional && node.questionToken) blankNode(node.questionToken);
    if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && node.exclamationToken) blankNode(node.exclamationToken);
    if ("typeParameters" in node && node.typeParameters) blankAngles(node.typeParameters as TypeScript.NodeArray<TypeScript.Node>);
    if ("typeArguments" in node && node.typeArguments) blankAngles(node.typeArguments as TypeScript.NodeArray<TypeScript.Node>);
    if ("type" in node && node.type && ts.isTypeNode(node.type as TypeScript.Node))
      // An arrow's return type stays on the line of its `)`: `=>` may not start a line.
      blankAnnotation(node.type as TypeScript.TypeNode, ts.isArrowFunction(node));
  };

  const visit = (node: TypeScript.Node, parent: TypeScript.Node): void => {
    if (ts.isExpressionWithTypeArguments(node)) {
      // `extends Base<T>`: the base class stays, its type arguments go.
      if (node.typeArguments) blankAngles(node.typeArguments);
      visit(node.expression, node);
    } else if (ts.isTypeNode(node)) {
      // A type holds no JavaScript (`typeof x` in a type is a type too).
    } else if (typesOnly(node, parent)) {
      blankNode(node);
    } else if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const list = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (list && (ts.isNamedImports(list) || ts.isNamedExports(list)))
        for (const element of list.elements) if (element.isTypeOnly) blankElement(element);
    } else if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node)) {
      blank(node.expression.end, node.end);
      visit(node.expression, node);
    } else if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.name.text === "this") {
      blankElement(node);
    } else {
      refuseUnsupported(node);
      blankTypeParts(node, parent);
      ts.forEachChild(node, (child) => visit(child, node));
    }
  };
  ts.forEachChild(source, (child) => visit(child, source));

  if (edits.length === 0) return text;
  // Stable: insertions at one place stay in the order they were made.
  edits.sort((a, b) => a.start - b.start);
  let result = "";
  let from = 0;
  for (const { start, end, joinLines, inserted } of edits) {
    if (inserted !== undefined) {
      result += text.slice(from, Math.max(start, from)) + inserted;
      from = Math.max(start, from);
      continue;
    }
    // A blank inside one already made (a type within a blanked declaration) is done.
    if (end <= from) continue;
    const begin = Math.max(start, from);
    result += text.slice(from, begin) + (joinLines ? " ".repeat(end - begin) : text.slice(begin, end).replace(/[^\r\n]/g, " "));
    from = end;
  }
  return result + text.slice(from);
}

/** A range to blank, or (`inserted`) text to add at `start`. */
interface Edit {
  start: number;
  end: number;
  /** Newlines go too: an arrow's return type must not leave `=>` at the start of a line. */
  joinLines: boolean;
  inserted?: string;
}
