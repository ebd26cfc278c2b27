/**
 * The syntax tree the layout printer reads: the shape of TypeScript's own nodes (same kinds, same
 * field names), for the subset of TypeScript that projector emits, built by ./parse.ts. Generate
 * then never loads the TypeScript compiler on its main thread, and the small parser is quick from a
 * cold start, where TypeScript's own parser spends a second compiling itself.
 */

/** The kinds of type nodes. */
const TYPE_KINDS_LIST = [
  "TypeReference",
  "LiteralType",
  "UnionType",
  "ArrayType",
  "TypeOperator",
  "IndexedAccessType",
  "TypeLiteral",
  "FunctionType",
  "StringKeyword",
  "NumberKeyword",
  "BooleanKeyword",
  "UnknownKeyword",
  "NeverKeyword",
  "VoidKeyword",
  "AnyKeyword",
  "UndefinedKeyword",
  "ObjectKeyword",
] as const;

const KINDS = [
  "SourceFile",
  "EndOfFileToken",
  "Identifier",
  "StringLiteral",
  "NumericLiteral",
  "TrueKeyword",
  "FalseKeyword",
  "NullKeyword",
  "ThisKeyword",
  "SuperKeyword",
  "ImportDeclaration",
  "ImportClause",
  "NamedImports",
  "ImportSpecifier",
  "ExportDeclaration",
  "NamedExports",
  "ExportSpecifier",
  "VariableStatement",
  "VariableDeclarationList",
  "VariableDeclaration",
  "TypeAliasDeclaration",
  "InterfaceDeclaration",
  "FunctionDeclaration",
  "Parameter",
  "TypeParameter",
  "ReturnStatement",
  "ExpressionStatement",
  "ForOfStatement",
  "IfStatement",
  "Block",
  "EmptyStatement",
  "ExportKeyword",
  "AsyncKeyword",
  "ReadonlyKeyword",
  "PropertyAccessExpression",
  "ElementAccessExpression",
  "CallExpression",
  "NewExpression",
  "ArrowFunction",
  "ObjectLiteralExpression",
  "PropertyAssignment",
  "ShorthandPropertyAssignment",
  "SpreadAssignment",
  "ComputedPropertyName",
  "ArrayLiteralExpression",
  "SpreadElement",
  "ConditionalExpression",
  "BinaryExpression",
  "AsExpression",
  "SatisfiesExpression",
  "AwaitExpression",
  "PrefixUnaryExpression",
  "ParenthesizedExpression",
  ...TYPE_KINDS_LIST,
  "PropertySignature",
  "IndexSignature",
  "ExclamationToken",
  "MinusToken",
  "PlusToken",
  "TildeToken",
  "PlusPlusToken",
  "MinusMinusToken",
  "EqualsToken",
  "CommaToken",
  "AmpersandAmpersandToken",
  "BarBarToken",
  "QuestionQuestionToken",
  "EqualsEqualsEqualsToken",
  "ExclamationEqualsEqualsToken",
  "EqualsEqualsToken",
  "ExclamationEqualsToken",
  "LessThanToken",
  "GreaterThanToken",
  "LessThanEqualsToken",
  "GreaterThanEqualsToken",
  // Kinds the printer names but the parser never builds: it refuses that syntax before.
  "ArrayBindingPattern",
  "ObjectBindingPattern",
  "BigIntLiteral",
  "ClassExpression",
  "CommaListExpression",
  "ConditionalType",
  "ExpressionWithTypeArguments",
  "FunctionExpression",
  "IntersectionType",
  "MappedType",
  "MultiLineCommentTrivia",
  "SingleLineCommentTrivia",
  "NoSubstitutionTemplateLiteral",
  "NonNullExpression",
  "OmittedExpression",
  "PostfixUnaryExpression",
  "RegularExpressionLiteral",
  "TaggedTemplateExpression",
  "TemplateExpression",
  "TupleType",
  "TypeAssertionExpression",
] as const;

export type Kind = (typeof KINDS)[number];
export const SyntaxKind = Object.fromEntries(KINDS.map((kind) => [kind, kind])) as { readonly [K in Kind]: K } & Record<string, Kind>;

/** Binary operators the parser reads; assignments are not among them. */
export const ASSIGNMENT_OPERATORS: ReadonlySet<Kind> = new Set(["EqualsToken"]);

export const NodeFlags = { None: 0, Let: 1, Const: 2 } as const;

/** One node: only the fields of its kind are set, as on TypeScript's nodes. */
export class Node {
  declare parent: Node;
  declare text: string;
  declare statements: Node[];
  declare endOfFileToken: Node;
  declare importClause: Node | undefined;
  declare name: Node;
  declare namedBindings: Node | undefined;
  declare elements: Node[];
  declare propertyName: Node | undefined;
  declare isTypeOnly: boolean;
  declare moduleSpecifier: Node;
  declare attributes: Node | undefined;
  declare exportClause: Node | undefined;
  declare declarationList: Node;
  declare flags: number;
  declare declarations: Node[];
  declare type: Node;
  declare initializer: Node;
  declare exclamationToken: Node | undefined;
  declare typeParameters: Node[] | undefined;
  declare constraint: Node | undefined;
  declare default: Node | undefined;
  declare heritageClauses: Node[] | undefined;
  declare members: Node[];
  declare body: Node;
  declare asteriskToken: Node | undefined;
  declare parameters: Node[];
  declare dotDotDotToken: Node | undefined;
  declare questionToken: Node | undefined;
  declare expression: Node;
  declare awaitModifier: Node | undefined;
  declare statement: Node;
  declare thenStatement: Node;
  declare elseStatement: Node | undefined;
  declare arguments: Node[];
  declare typeArguments: Node[] | undefined;
  declare questionDotToken: Node | undefined;
  declare argumentExpression: Node;
  declare properties: Node[];
  declare objectAssignmentInitializer: Node | undefined;
  declare operator: Kind;
  declare operand: Node;
  declare operatorToken: Node;
  declare left: Node;
  declare right: Node;
  declare condition: Node;
  declare whenTrue: Node;
  declare whenFalse: Node;
  declare typeName: Node;
  declare literal: Node;
  declare types: Node[];
  declare elementType: Node;
  declare objectType: Node;
  declare indexType: Node;
  declare modifiers: Node[] | undefined;

  constructor(
    readonly kind: Kind,
    /** Where the node's leading trivia starts, as TypeScript's `pos`. */
    readonly pos: number,
    readonly start: number,
    public end: number,
  ) {}

  getStart(): number {
    return this.start;
  }

  getText(file: SourceFile): string {
    return file.text.slice(this.start, this.end);
  }
}

export interface SourceFile extends Node {
  /** How many comments the file holds: the printer must have printed as many. */
  comments: number;
}

export const getModifiers = (node: Node): Node[] | undefined => node.modifiers;
export const canHaveModifiers = (_node: Node): boolean => true;

const TYPE_KINDS: ReadonlySet<Kind> = new Set(TYPE_KINDS_LIST);

export const isTypeNode = (node: Node): boolean => TYPE_KINDS.has(node.kind);
export const isIdentifier = (node: Node): boolean => node.kind === "Identifier";

export interface CommentRange {
  pos: number;
  end: number;
  kind: Kind;
}

/**
 * The comments in the trivia from `pos`: leading ones start after the first line break (or at the
 * file's start), trailing ones end at it, as TypeScript's getLeadingCommentRanges and
 * getTrailingCommentRanges divide them.
 */
function commentRanges(text: string, start: number, trailing: boolean): CommentRange[] {
  const ranges: CommentRange[] = [];
  let collecting = trailing || start === 0;
  let pos = start;
  while (pos < text.length) {
    const char = text[pos];
    if (char === "\n" || char === "\r") {
      pos++;
      if (trailing) break;
      collecting = true;
      continue;
    }
    if (char === " " || char === "\t") {
      pos++;
      continue;
    }
    if (char === "/" && (text[pos + 1] === "/" || text[pos + 1] === "*")) {
      const begin = pos;
      const kind: Kind = text[pos + 1] === "/" ? "SingleLineCommentTrivia" : "MultiLineCommentTrivia";
      if (kind === "SingleLineCommentTrivia") {
        while (pos < text.length && text[pos] !== "\n" && text[pos] !== "\r") pos++;
      } else {
        const close = text.indexOf("*/", pos + 2);
        pos = close === -1 ? text.length : close + 2;
      }
      if (collecting) ranges.push({ pos: begin, end: pos, kind });
      continue;
    }
    break;
  }
  return ranges;
}

export const getLeadingCommentRanges = (text: string, pos: number): CommentRange[] => commentRanges(text, pos, false);
export const getTrailingCommentRanges = (text: string, pos: number): CommentRange[] => commentRanges(text, pos, true);

// Type names the printer reads its nodes as, all one shape here.
export type Expression = Node;
export type Statement = Node;
export type TypeNode = Node;
export type TypeElement = Node;
export type Identifier = Node;
export type CallExpression = Node;
export type NewExpression = Node;
export type PropertyAccessExpression = Node;
export type ElementAccessExpression = Node;
export type BinaryExpression = Node;
export type PrefixUnaryExpression = Node;
export type PostfixUnaryExpression = Node;
export type ArrayLiteralExpression = Node;
export type ObjectLiteralExpression = Node;
export type ObjectLiteralElementLike = Node;
export type ArrowFunction = Node;
export type ConditionalExpression = Node;
export type AwaitExpression = Node;
export type AsExpression = Node;
export type SatisfiesExpression = Node;
export type SpreadElement = Node;
export type ParenthesizedExpression = Node;
export type Block = Node;
export type ReturnStatement = Node;
export type ExpressionStatement = Node;
export type ForOfStatement = Node;
export type IfStatement = Node;
export type VariableStatement = Node;
export type VariableDeclarationList = Node;
export type VariableDeclaration = Node;
export type TypeAliasDeclaration = Node;
export type InterfaceDeclaration = Node;
export type FunctionDeclaration = Node;
export type ImportDeclaration = Node;
export type ExportDeclaration = Node;
export type ImportSpecifier = Node;
export type ExportSpecifier = Node;
export type ModuleExportName = Node;
export type ParameterDeclaration = Node;
export type SignatureDeclarationBase = Node;
export type PropertyName = Node;
export type PropertySignature = Node;
export type IndexSignatureDeclaration = Node;
export type TypeReferenceNode = Node;
export type UnionTypeNode = Node;
export type LiteralTypeNode = Node;
export type ArrayTypeNode = Node;
export type TypeOperatorNode = Node;
export type IndexedAccessTypeNode = Node;
export type TypeLiteralNode = Node;
export type FunctionTypeNode = Node;
