import { builders, utils } from "prettier/doc";
import * as ts from "./ast.js";
import { printStringLiteral, textWidth } from "./literals.js";
import { type Source, Unsure } from "./source.js";

type Doc = builders.Doc;
const { group, indent, line, softline, hardline, ifBreak, join, indentIfBreak, lineSuffixBoundary } = builders;
const { willBreak, canBreak, removeLines } = utils;

/** What a parent tells a child about the layout it is printed in, as prettier's printer passes it down. */
export interface Args {
  expandLastArg?: boolean;
  expandFirstArg?: boolean;
  assignmentLayout?: string;
}

const K = ts.SyntaxKind;

/** The longest assignment statement laid out here: at any depth the emitter writes one, it fits the line. */
const SHORT_ASSIGNMENT = 60;

/**
 * Builds prettier's doc for the TypeScript that projector emits, mirroring prettier's printer
 * (src/language-js/print in prettier 3) for exactly that syntax; anything else throws Unsure.
 */
export class Printer {
  /** Docs of expressions printed without layout hints, reused as prettier's printer reuses them. */
  readonly printed = new Map<ts.Node, Doc>();
  /** Where each comment printed starts: a doc printed twice (a hugged argument) prints its comments twice. */
  private readonly printedComments = new Set<number>();

  constructor(
    readonly source: Source,
    readonly file: ts.SourceFile,
  ) {}

  /**
   * The file as text. The file's own statements start at column 0 outside any group, so each is laid
   * out on its own, as the whole would be, and its docs are dropped before the next is built.
   */
  printFile(print: (doc: Doc) => string): string {
    const eof = this.source.leadingComments(this.file.endOfFileToken);
    if (eof.length > 0) throw new Unsure("comment at the end of the file");
    const statements = this.file.statements;
    // Joined once at the end: the text comes out flat, not as a tree of pieces to be flattened later.
    const parts: string[] = [];
    statements.forEach((statement, i) => {
      parts.push(print(this.withComments(statement, this.statement(statement))));
      this.printed.clear();
      parts.push(i < statements.length - 1 && this.source.nextLineEmpty(statement.end) ? "\n\n" : "\n");
    });
    // A comment anywhere but before a statement or a member is not printed here: never drop one silently.
    if (this.printedComments.size !== this.file.comments) throw new Unsure("comment in a place not laid out here");
    return parts.join("");
  }

  statements(statements: readonly ts.Statement[]): Doc {
    const parts: Doc[] = [];
    statements.forEach((statement, i) => {
      parts.push(this.withComments(statement, this.statement(statement)));
      if (i < statements.length - 1) {
        parts.push(hardline);
        if (this.source.nextLineEmpty(statement.end)) parts.push(hardline);
      }
    });
    return parts;
  }

  /** A node with the comments written before it, as prettier prints leading comments. */
  withComments(node: ts.Node, printed: Doc): Doc {
    const comments = this.source.leadingComments(node);
    if (this.source.trailingComments(node).length > 0) throw new Unsure("trailing comment");
    if (comments.length === 0) return printed;
    const { text } = this.source;
    const parts: Doc[] = [];
    for (const comment of comments) {
      this.printedComments.add(comment.pos);
      const body = text.slice(comment.pos, comment.end);
      // Prettier prints the next node as it is written after a `prettier-ignore`.
      if (body.includes("prettier-ignore")) throw new Unsure("prettier-ignore");
      if (comment.kind === K.MultiLineCommentTrivia) {
        parts.push(printBlockComment(body));
        parts.push(this.source.hasNewline(comment.end) ? (this.source.hasNewlineBefore(comment.pos) ? hardline : line) : " ");
      } else {
        parts.push(body.trimEnd(), hardline);
      }
      let after = comment.end;
      while (text[after] === " " || text[after] === "\t") after++;
      if (text[after] === "\n") after++;
      else if (text.startsWith("\r\n", after)) after += 2;
      if (this.source.hasNewline(after)) parts.push(hardline);
    }
    return [...parts, printed];
  }

  statement(node: ts.Statement): Doc {
    switch (node.kind) {
      case K.ImportDeclaration:
        return this.importDeclaration(node as ts.ImportDeclaration);
      case K.ExportDeclaration:
        return this.exportDeclaration(node as ts.ExportDeclaration);
      case K.VariableStatement:
        return [this.exported(node), this.variableDeclarationList((node as ts.VariableStatement).declarationList), ";"];
      case K.TypeAliasDeclaration:
        return this.typeAlias(node as ts.TypeAliasDeclaration);
      case K.InterfaceDeclaration:
        return this.interfaceDeclaration(node as ts.InterfaceDeclaration);
      case K.FunctionDeclaration:
        return this.functionDeclaration(node as ts.FunctionDeclaration);
      case K.ReturnStatement:
        return this.returnStatement(node as ts.ReturnStatement);
      case K.ExpressionStatement:
        return this.expressionStatement(node as ts.ExpressionStatement);
      case K.ForOfStatement:
        return this.forOf(node as ts.ForOfStatement);
      case K.IfStatement:
        return this.ifStatement(node as ts.IfStatement);
      case K.Block:
        return this.block(node as ts.Block);
      default:
        throw new Unsure(K[node.kind]);
    }
  }

  private exported(node: ts.Node): string {
    const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
    let text = "";
    for (const modifier of modifiers) {
      if (modifier.kind === K.ExportKeyword) text += "export ";
      else if (modifier.kind === K.AsyncKeyword) continue;
      else throw new Unsure(`modifier ${K[modifier.kind]}`);
    }
    return text;
  }

  private importDeclaration(node: ts.ImportDeclaration): Doc {
    const clause = node.importClause;
    if (!clause && !node.attributes) return ["import ", this.stringLiteral(node.moduleSpecifier), ";"];
    if (!clause || clause.name || node.attributes) throw new Unsure("import form");
    const bindings = clause.namedBindings;
    if (!bindings || bindings.kind !== K.NamedImports) throw new Unsure("import form");
    return [
      "import",
      clause.isTypeOnly ? " type" : "",
      " ",
      this.specifiers(bindings.elements),
      " from ",
      this.stringLiteral(node.moduleSpecifier),
      ";",
    ];
  }

  private exportDeclaration(node: ts.ExportDeclaration): Doc {
    const clause = node.exportClause;
    if (!clause || clause.kind !== K.NamedExports || node.attributes || ts.getModifiers(node)?.length) throw new Unsure("export form");
    return [
      "export",
      node.isTypeOnly ? " type" : "",
      " ",
      this.specifiers(clause.elements),
      node.moduleSpecifier ? [" from ", this.stringLiteral(node.moduleSpecifier)] : "",
      ";",
    ];
  }

  private specifiers(elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[]): Doc {
    if (elements.length === 0) return "{}";
    const printed = elements.map((element) => {
      if (this.source.leadingComments(element).length > 0) throw new Unsure("comment in specifiers");
      const name = element.propertyName ? `${this.identifierName(element.propertyName)} as ${element.name.text}` : element.name.text;
      return `${element.isTypeOnly ? "type " : ""}${name}`;
    });
    if (printed.length === 1) return ["{ ", printed[0]!, " }"];
    return group(["{", indent([line, join([",", line], printed)]), ifBreak(","), line, "}"]);
  }

  private identifierName(node: ts.ModuleExportName): string {
    if (node.kind !== K.Identifier) throw new Unsure("string module export name");
    return node.text;
  }

  private variableDeclarationList(list: ts.VariableDeclarationList): Doc {
    const keyword = list.flags & ts.NodeFlags.Const ? "const" : list.flags & ts.NodeFlags.Let ? "let" : "var";
    if (list.declarations.length !== 1) throw new Unsure("several declarators");
    const declaration = list.declarations[0]!;
    if (declaration.name.kind !== K.Identifier || declaration.exclamationToken) throw new Unsure("declarator form");
    const left: Doc = [declaration.name.text, declaration.type ? [": ", this.type(declaration.type)] : ""];
    const printed = this.assignment(declaration, left, " =", declaration.initializer);
    return [keyword, " ", printed];
  }

  // ---- assignments (prettier: print/assignment.js)

  assignment(node: ts.Node, left: Doc, operator: string, right: ts.Node | undefined): Doc {
    const layout = this.chooseLayout(node, left, right);
    const rightDoc = right ? this.any(right, { assignmentLayout: layout }) : "";
    switch (layout) {
      case "break-after-operator":
        return group([group(left), operator, group(indent([line, rightDoc]))]);
      case "never-break-after-operator":
        return group([group(left), operator, " ", rightDoc]);
      case "fluid": {
        const id = Symbol("assignment");
        return group([group(left), operator, group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(rightDoc, { groupId: id })]);
      }
      case "break-lhs":
        return group([left, operator, " ", group(rightDoc)]);
      default:
        return left;
    }
  }

  private chooseLayout(node: ts.Node, left: Doc, right: ts.Node | undefined): string {
    if (!right) return "only-left";
    if ((right.kind === K.UnionType && !this.shouldHugUnion(right as ts.UnionTypeNode)) || this.hasLeadingOwnLineComment(right))
      return "break-after-operator";
    const canBreakLeft = canBreak(left);
    if (node.kind === K.VariableDeclaration) {
      const declaration = node as ts.VariableDeclaration;
      if (this.hasComplexTypeAnnotation(declaration)) return "break-lhs";
      if (declaration.initializer?.kind === K.ArrowFunction && canBreakLeft) return "break-lhs";
    }
    const shortKey = node.kind === K.PropertyAssignment && typeof left === "string" && textWidth(left) < 2 + 3;
    if (this.shouldBreakAfterOperator(right, shortKey)) return "break-after-operator";
    if (node.kind === K.TypeAliasDeclaration && ((node as ts.TypeAliasDeclaration).typeParameters?.length ?? 0) > 1)
      throw new Unsure("type alias parameters");
    if (
      !canBreakLeft &&
      (shortKey ||
        right.kind === K.TemplateExpression ||
        right.kind === K.NoSubstitutionTemplateLiteral ||
        right.kind === K.TaggedTemplateExpression ||
        right.kind === K.TrueKeyword ||
        right.kind === K.FalseKeyword ||
        right.kind === K.NumericLiteral ||
        right.kind === K.ClassExpression)
    )
      return "never-break-after-operator";
    return "fluid";
  }

  private hasComplexTypeAnnotation(node: ts.VariableDeclaration): boolean {
    const type = node.type;
    if (!type || type.kind !== K.TypeReference) return false;
    const params = (type as ts.TypeReferenceNode).typeArguments ?? [];
    return (
      params.length > 1 &&
      params.some(
        (param) =>
          (param.kind === K.TypeReference && ((param as ts.TypeReferenceNode).typeArguments?.length ?? 0) > 0) ||
          param.kind === K.ConditionalType,
      )
    );
  }

  private hasLeadingOwnLineComment(node: ts.Node): boolean {
    return this.source.leadingComments(node).some((comment) => this.source.hasNewline(comment.end));
  }

  private shouldBreakAfterOperator(right: ts.Node, shortKey: boolean): boolean {
    if (isBinaryish(right) && !this.shouldInlineLogical(right as ts.BinaryExpression)) return true;
    if (right.kind === K.ConditionalExpression) {
      const test = (right as ts.ConditionalExpression).condition;
      return isBinaryish(test) && !this.shouldInlineLogical(test as ts.BinaryExpression);
    }
    if (right.kind === K.ConditionalType) throw new Unsure("conditional type");
    if (shortKey) return false;
    let node = right;
    while (node.kind === K.AwaitExpression || node.kind === K.PrefixUnaryExpression || node.kind === K.NonNullExpression) {
      node = node.kind === K.PrefixUnaryExpression ? (node as ts.PrefixUnaryExpression).operand : (node as ts.AwaitExpression).expression;
    }
    return node.kind === K.StringLiteral || this.isPoorlyBreakableMemberOrCallChain(node, false);
  }

  private isPoorlyBreakableMemberOrCallChain(node: ts.Node, deep: boolean): boolean {
    if (node.kind === K.CallExpression) {
      const call = node as ts.CallExpression;
      if (isMemberish(call.expression) && this.isMemberChain(call)) return false;
      const args = call.arguments;
      const poorlyBreakable = args.length === 0 || (args.length === 1 && this.isLoneShortArgument(args[0]!));
      if (!poorlyBreakable) return false;
      if (this.callHasComplexTypeArguments(call)) return false;
      return this.isPoorlyBreakableMemberOrCallChain(call.expression, true);
    }
    if (isMemberish(node)) return this.isPoorlyBreakableMemberOrCallChain((node as ts.PropertyAccessExpression).expression, true);
    return deep && (node.kind === K.Identifier || node.kind === K.ThisKeyword);
  }

  private callHasComplexTypeArguments(call: ts.CallExpression): boolean {
    const params = call.typeArguments ?? [];
    if (params.length === 0) return false;
    if (params.length > 1) return true;
    const only = params[0]!;
    if (only.kind === K.UnionType || only.kind === K.IntersectionType || only.kind === K.TypeLiteral) return true;
    return willBreak(this.typeArguments(params));
  }

  /** prettier's isLoneShortArgument, at the default print width. */
  isLoneShortArgument(node: ts.Node): boolean {
    const threshold = 80 * 0.25;
    if (node.kind === K.ThisKeyword) return true;
    if (node.kind === K.Identifier) return (node as ts.Identifier).text.length <= threshold;
    if (isSignedNumber(node)) return true;
    if (node.kind === K.RegularExpressionLiteral) throw new Unsure("regular expression");
    if (node.kind === K.StringLiteral) return printStringLiteral(node.getText(this.file)).length <= threshold;
    if (node.kind === K.NoSubstitutionTemplateLiteral) {
      const raw = node.getText(this.file).slice(1, -1);
      return raw.length <= threshold && !raw.includes("\n");
    }
    if (node.kind === K.TemplateExpression) return false;
    if (node.kind === K.PrefixUnaryExpression) return this.isLoneShortArgument((node as ts.PrefixUnaryExpression).operand);
    if (node.kind === K.CallExpression) {
      const call = node as ts.CallExpression;
      return (
        call.arguments.length === 0 &&
        call.expression.kind === K.Identifier &&
        (call.expression as ts.Identifier).text.length <= threshold - 2
      );
    }
    return isLiteral(node);
  }

  // ---- declarations

  private typeAlias(node: ts.TypeAliasDeclaration): Doc {
    const left: Doc = [this.exported(node), "type ", node.name.text, this.typeParameters(node.typeParameters)];
    return [this.assignment(node, left, " =", node.type), ";"];
  }

  private interfaceDeclaration(node: ts.InterfaceDeclaration): Doc {
    if (node.heritageClauses) throw new Unsure("interface form");
    return [
      this.exported(node),
      "interface ",
      node.name.text,
      this.typeParameters(node.typeParameters),
      " ",
      this.members(node, node.members, true),
    ];
  }

  private functionDeclaration(node: ts.FunctionDeclaration): Doc {
    if (!node.name || !node.body || node.asteriskToken) throw new Unsure("function form");
    const isAsync = (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === K.AsyncKeyword);
    const returnType = this.returnType(node);
    const params = this.functionParameters(node, false);
    const grouped = this.shouldGroupFunctionParameters(node, returnType);
    return [
      this.exported(node),
      isAsync ? "async " : "",
      "function ",
      node.name.text,
      this.typeParameters(node.typeParameters),
      group([grouped ? group(params) : params, returnType]),
      " ",
      this.block(node.body, true),
    ];
  }

  private returnType(node: ts.SignatureDeclarationBase): Doc {
    return node.type ? [": ", this.type(node.type)] : "";
  }

  private shouldGroupFunctionParameters(node: ts.SignatureDeclarationBase, returnType: Doc): boolean {
    const type = node.type;
    if (!type) return false;
    // Prettier groups them only for one type parameter at most, and one without a constraint or default.
    const typeParameters = node.typeParameters ?? [];
    if (typeParameters.length > 1 || typeParameters.some((param) => param.constraint || param.default)) return false;
    return node.parameters.length === 1 && (type.kind === K.TypeLiteral || type.kind === K.MappedType || willBreak(returnType));
  }

  functionParameters(node: ts.SignatureDeclarationBase, expand: boolean): Doc {
    const params = node.parameters;
    if (params.length === 0) return "()";
    const hug = this.shouldHugTheOnlyFunctionParameter(node);
    const printed: Doc[] = [];
    params.forEach((param, i) => {
      printed.push(this.parameter(param));
      if (i === params.length - 1) return;
      printed.push(",");
      if (hug) printed.push(" ");
      else if (this.source.nextLineEmpty(param.end)) printed.push(hardline, hardline);
      else printed.push(line);
    });
    if (expand) {
      if (willBreak(printed)) throw new ArgExpansionBailout();
      return group(["(", removeLines(printed), ")"]);
    }
    if (hug) return ["(", ...printed, ")"];
    const rest = params.at(-1)?.dotDotDotToken !== undefined;
    return ["(", indent([softline, ...printed]), ifBreak(rest ? "" : ","), softline, ")"];
  }

  private shouldHugTheOnlyFunctionParameter(node: ts.SignatureDeclarationBase): boolean {
    if (node.parameters.length !== 1) return false;
    const [param] = node.parameters;
    if (this.source.leadingComments(param!).length > 0) return false;
    if (param!.name.kind === K.ObjectBindingPattern || param!.name.kind === K.ArrayBindingPattern) return true;
    return param!.name.kind === K.Identifier && param!.type !== undefined && param!.type.kind === K.TypeLiteral && !param!.initializer;
  }

  private parameter(node: ts.ParameterDeclaration): Doc {
    if (node.name.kind !== K.Identifier || ts.getModifiers(node)?.length) throw new Unsure("parameter form");
    const left: Doc = [
      node.dotDotDotToken ? "..." : "",
      node.name.text,
      node.questionToken ? "?" : "",
      node.type ? [": ", this.type(node.type)] : "",
    ];
    if (!node.initializer) return left;
    return [left, " = ", this.expression(node.initializer)];
  }

  /** `{}` stays on one line only as a function's body; after `if`, `for` or alone, prettier breaks it, which is left to prettier. */
  block(node: ts.Block, isFunctionBody = false): Doc {
    if (node.statements.length === 0) {
      if (!isFunctionBody || node.getText(this.file) !== "{}") throw new Unsure("empty block form");
      return "{}";
    }
    return ["{", indent([hardline, this.statements(node.statements)]), hardline, "}"];
  }

  /**
   * An expression statement; an assignment only as projector writes one, a member of `this` set to
   * a parameter (`this.id = v0;`), and short enough that prettier leaves it on its line.
   */
  private expressionStatement(node: ts.ExpressionStatement): Doc {
    const expression = node.expression;
    if (expression.kind !== K.BinaryExpression || (expression as ts.BinaryExpression).operatorToken.kind !== K.EqualsToken)
      return [this.expression(expression), ";"];
    const { left, right } = expression as ts.BinaryExpression;
    const target = left.kind === K.PropertyAccessExpression || left.kind === K.ElementAccessExpression;
    if (!target || (left as ts.PropertyAccessExpression).expression.kind !== K.ThisKeyword || right.kind !== K.Identifier)
      throw new Unsure("assignment form");
    const text = node.getText(this.file);
    if (text.length > SHORT_ASSIGNMENT || text.includes("\n")) throw new Unsure("long assignment");
    return [this.expression(left), " = ", this.expression(right), ";"];
  }

  private returnStatement(node: ts.ReturnStatement): Doc {
    if (!node.expression) return "return;";
    const argument = node.expression;
    if (this.source.leadingComments(argument).length > 0) throw new Unsure("comment in return");
    const unwrapped = skipParentheses(argument);
    if (isBinaryish(unwrapped) || unwrapped.kind === K.CommaListExpression) {
      return ["return ", group([ifBreak("("), indent([softline, this.expression(argument)]), softline, ifBreak(")")]), ";"];
    }
    return ["return ", this.expression(argument), ";"];
  }

  private forOf(node: ts.ForOfStatement): Doc {
    if (node.awaitModifier || node.initializer.kind !== K.VariableDeclarationList) throw new Unsure("for-of form");
    return group([
      "for (",
      this.variableDeclarationList(node.initializer as ts.VariableDeclarationList),
      " of ",
      this.expression(node.expression),
      ")",
      this.clause(node.statement),
    ]);
  }

  private ifStatement(node: ts.IfStatement): Doc {
    if (node.elseStatement) throw new Unsure("else");
    return group(["if (", group(this.expression(node.expression)), ")", this.clause(node.thenStatement)]);
  }

  private clause(body: ts.Statement): Doc {
    if (body.kind === K.EmptyStatement) return ";";
    if (body.kind === K.Block) return [" ", this.block(body as ts.Block)];
    return indent([line, this.statement(body)]);
  }

  // ---- dispatch for a node that may be a type or an expression

  any(node: ts.Node, args: Args = {}): Doc {
    return ts.isTypeNode(node) ? this.type(node, args) : this.expression(node as ts.Expression, args);
  }

  // Expressions, types and calls are in their own modules; they are attached to this class below.
  declare expression: (node: ts.Expression, args?: Args) => Doc;
  declare type: (node: ts.TypeNode, args?: Args) => Doc;
  declare typeArguments: (params: readonly ts.TypeNode[]) => Doc;
  declare typeParameters: (params: readonly ts.Node[] | undefined) => Doc;
  declare members: (node: ts.Node, members: readonly ts.TypeElement[], isInterface: boolean) => Doc;
  declare shouldHugUnion: (node: ts.UnionTypeNode) => boolean;
  declare shouldInlineLogical: (node: ts.BinaryExpression) => boolean;
  declare isMemberChain: (node: ts.CallExpression) => boolean;
  declare stringLiteral: (node: ts.Node) => string;
}

/** Prettier's signal that an argument cannot be printed hugged; the call then breaks all its arguments. */
export class ArgExpansionBailout extends Error {}

export const isMemberish = (node: ts.Node): boolean => node.kind === K.PropertyAccessExpression || node.kind === K.ElementAccessExpression;

export function isBinaryish(node: ts.Node): boolean {
  if (node.kind !== K.BinaryExpression) return false;
  const operator = (node as ts.BinaryExpression).operatorToken.kind;
  return !ts.ASSIGNMENT_OPERATORS.has(operator) && operator !== K.CommaToken;
}

export function skipParentheses(node: ts.Node): ts.Node {
  let current = node;
  while (current.kind === K.ParenthesizedExpression) current = (current as ts.ParenthesizedExpression).expression;
  return current;
}

const isLiteral = (node: ts.Node): boolean =>
  node.kind === K.StringLiteral ||
  node.kind === K.NumericLiteral ||
  node.kind === K.TrueKeyword ||
  node.kind === K.FalseKeyword ||
  node.kind === K.NullKeyword ||
  node.kind === K.BigIntLiteral ||
  node.kind === K.RegularExpressionLiteral;

const isSignedNumber = (node: ts.Node): boolean =>
  node.kind === K.NumericLiteral ||
  (node.kind === K.PrefixUnaryExpression &&
    ((node as ts.PrefixUnaryExpression).operator === K.MinusToken || (node as ts.PrefixUnaryExpression).operator === K.PlusToken) &&
    (node as ts.PrefixUnaryExpression).operand.kind === K.NumericLiteral);

export { isLiteral, isSignedNumber };

/** A block comment as prettier prints it: re-indented when every line starts with `*`, as JSDoc does. */
function printBlockComment(text: string): Doc {
  const value = text.slice(2, -2);
  const lines = `*${value}*`.split("\n");
  if (lines.length > 1 && lines.every((l) => l.trimStart()[0] === "*")) {
    const valueLines = value.split("\n");
    // In JSDoc, prettier keeps two trailing spaces (a Markdown line break) on a middle line.
    if (value[0] === "*" && valueLines.slice(1, -1).some((l) => l.endsWith("  ") && l.trim() !== "*"))
      throw new Unsure("line break in JSDoc");
    return [
      "/*",
      join(
        hardline,
        valueLines.map((l, i) => (i === 0 ? l.trimEnd() : ` ${i < valueLines.length - 1 ? l.trim() : l.trimStart()}`)),
      ),
      "*/",
    ];
  }
  if (text.includes("\n")) throw new Unsure("block comment over lines");
  return text;
}
