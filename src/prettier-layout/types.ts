import { builders, utils } from "prettier/doc";
type Doc = builders.Doc;
import * as ts from "./ast.js";
import { printNumberLiteral, printStringLiteral } from "./literals.js";
import { type Args, Printer } from "./printer.js";
import { Unsure } from "./source.js";

const { group, indent, align, line, softline, hardline, ifBreak, join } = builders;
const K = ts.SyntaxKind;

const KEYWORDS = new Map<ts.Kind, string>([
  [K.StringKeyword, "string"],
  [K.NumberKeyword, "number"],
  [K.BooleanKeyword, "boolean"],
  [K.UnknownKeyword, "unknown"],
  [K.NeverKeyword, "never"],
  [K.VoidKeyword, "void"],
  [K.AnyKeyword, "any"],
  [K.UndefinedKeyword, "undefined"],
  [K.ObjectKeyword, "object"],
  [K.NullKeyword, "null"],
]);

Printer.prototype.type = function (this: Printer, node: ts.TypeNode, args: Args = {}): Doc {
  const keyword = KEYWORDS.get(node.kind);
  if (keyword) return keyword;
  switch (node.kind) {
    case K.TypeReference: {
      const reference = node as ts.TypeReferenceNode;
      if (reference.typeName.kind !== K.Identifier) throw new Unsure("qualified type name");
      return [reference.typeName.text, reference.typeArguments ? this.typeArguments(reference.typeArguments) : ""];
    }
    case K.LiteralType: {
      const literal = (node as ts.LiteralTypeNode).literal;
      if (literal.kind === K.StringLiteral) return printStringLiteral(literal.getText(this.file));
      if (literal.kind === K.NumericLiteral) return printNumberLiteral(literal.getText(this.file));
      if (literal.kind === K.NullKeyword) return "null";
      if (literal.kind === K.TrueKeyword) return "true";
      if (literal.kind === K.FalseKeyword) return "false";
      throw new Unsure("literal type");
    }
    case K.UnionType:
      return this.union(node as ts.UnionTypeNode, args);
    case K.ArrayType: {
      const element = (node as ts.ArrayTypeNode).elementType;
      if (element.kind === K.UnionType || element.kind === K.FunctionType || element.kind === K.IntersectionType)
        throw new Unsure("array of a compound type");
      return [this.type(element), "[]"];
    }
    case K.TypeOperator: {
      const operator = node as ts.TypeOperatorNode;
      if (operator.operator !== K.ReadonlyKeyword) throw new Unsure("type operator");
      return ["readonly ", this.type(operator.type)];
    }
    case K.IndexedAccessType: {
      const access = node as ts.IndexedAccessTypeNode;
      return [this.type(access.objectType), "[", this.type(access.indexType), "]"];
    }
    case K.TypeLiteral:
      return this.members(node, (node as ts.TypeLiteralNode).members, false);
    case K.FunctionType:
      return this.functionType(node as ts.FunctionTypeNode);
    default:
      throw new Unsure(K[node.kind]);
  }
};

declare module "./printer.js" {
  interface Printer {
    union(node: ts.UnionTypeNode, args: Args): Doc;
    functionType(node: ts.FunctionTypeNode): Doc;
  }
}

const isObjectLikeType = (node: ts.Node) => node.kind === K.TypeLiteral || node.kind === K.TypeReference || node.kind === K.MappedType;
const isVoidType = (node: ts.Node) =>
  node.kind === K.VoidKeyword || (node.kind === K.LiteralType && (node as ts.LiteralTypeNode).literal.kind === K.NullKeyword);

Printer.prototype.shouldHugUnion = function (this: Printer, node: ts.UnionTypeNode): boolean {
  if (node.types.some((type) => this.source.leadingComments(type).length > 0)) return false;
  const objectType = node.types.find(isObjectLikeType);
  if (!objectType) return false;
  return node.types.every((type) => type === objectType || isVoidType(type));
};

Printer.prototype.union = function (this: Printer, node: ts.UnionTypeNode, args: Args): Doc {
  if (this.shouldHugUnion(node))
    return join(
      " | ",
      node.types.map((type) => this.type(type)),
    );
  const parent = node.parent;
  if (
    parent.kind === K.ArrayType ||
    parent.kind === K.TypeOperator ||
    parent.kind === K.IndexedAccessType ||
    parent.kind === K.TupleType ||
    parent.kind === K.UnionType
  )
    throw new Unsure("union needing parentheses");
  if (node.types.some((type) => this.source.leadingComments(type).length > 0)) throw new Unsure("comment in union");
  const printed = group(
    node.types.map((type, i) => {
      const bar = i === 0 ? ifBreak("| ") : [line, "| "];
      return [bar, align(2, this.type(type))];
    }),
  );
  const isTypeArgument =
    parent.kind === K.TypeReference ||
    parent.kind === K.ExpressionWithTypeArguments ||
    ((parent.kind === K.CallExpression || parent.kind === K.NewExpression) && (parent as ts.CallExpression).typeArguments?.includes(node));
  if (args.assignmentLayout === "break-after-operator" || isTypeArgument) return printed;
  return group(indent([softline, printed]));
};

Printer.prototype.typeArguments = function (this: Printer, params: readonly ts.TypeNode[]): Doc {
  if (params.length === 0) return "<>";
  const only = params[0]!;
  const simple =
    params.length === 1 &&
    (KEYWORDS.has(only.kind) ||
      (only.kind === K.TypeReference && !(only as ts.TypeReferenceNode).typeArguments) ||
      only.kind === K.TypeLiteral ||
      only.kind === K.MappedType ||
      (only.kind === K.UnionType && this.shouldHugUnion(only as ts.UnionTypeNode)));
  const printed = params.map((param) => this.type(param));
  if (simple) return ["<", join(", ", printed), ">"];
  return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
};

/**
 * A declaration's type parameters as prettier prints them: never hugged, a group that breaks to one
 * a line, with a trailing comma, only when it must. A constraint is left to prettier, which breaks
 * it on its own line.
 */
Printer.prototype.typeParameters = function (this: Printer, params: readonly ts.Node[] | undefined): Doc {
  if (params === undefined) return "";
  if (params.length === 0) throw new Unsure("empty type parameters");
  const printed = params.map((param) => {
    if (param.constraint) throw new Unsure("type parameter constraint");
    return group([param.name.text, param.default ? [" = ", this.type(param.default)] : ""]);
  });
  return group(["<", indent([softline, join([",", line], printed)]), ifBreak(","), softline, ">"]);
};

Printer.prototype.functionType = function (this: Printer, node: ts.FunctionTypeNode): Doc {
  if (node.typeParameters) throw new Unsure("generic function type");
  const params = this.functionParameters(node, false);
  const returnType: Doc = [" => ", this.type(node.type)];
  const grouped =
    node.parameters.length === 1 && (node.type.kind === K.TypeLiteral || node.type.kind === K.MappedType || utils.willBreak(returnType));
  return group([grouped ? group(params) : params, returnType]);
};

Printer.prototype.members = function (this: Printer, node: ts.Node, members: readonly ts.TypeElement[], inInterface: boolean): Doc {
  if (members.length === 0) {
    if (/\/[/*]/.test(node.getText(this.file))) throw new Unsure("comment in empty type");
    return "{}";
  }
  const parts: Doc[] = [];
  members.forEach((member, i) => {
    const isLast = i === members.length - 1;
    parts.push(this.withComments(member, this.typeMember(member, isLast, inInterface)));
    if (!isLast) {
      parts.push(inInterface ? hardline : line);
      if (this.source.nextLineEmpty(member.end)) parts.push(hardline);
    }
  });
  if (inInterface) return ["{", indent([hardline, parts]), hardline, "}"];
  const shouldBreak = this.source.hasNewlineInRange(node.getStart(), members[0]!.getStart());
  return group(["{", indent([line, ...parts]), line, "}"], { shouldBreak });
};

declare module "./printer.js" {
  interface Printer {
    typeMember(node: ts.TypeElement, isLast: boolean, inInterface: boolean): Doc;
  }
}

Printer.prototype.typeMember = function (this: Printer, node: ts.TypeElement, isLast: boolean, inInterface: boolean): Doc {
  const semicolon = inInterface ? ";" : isLast ? ifBreak(";") : ";";
  if (node.kind === K.PropertySignature) {
    const property = node as ts.PropertySignature;
    const modifiers = ts.getModifiers(property) ?? [];
    if (modifiers.some((modifier) => modifier.kind !== K.ReadonlyKeyword)) throw new Unsure("member modifier");
    if (!property.type) throw new Unsure("member without a type");
    return [
      group([
        modifiers.length > 0 ? "readonly " : "",
        this.propertyKey(property.name),
        property.questionToken ? "?" : "",
        ": ",
        this.type(property.type),
      ]),
      semicolon,
    ];
  }
  if (node.kind === K.IndexSignature) {
    const index = node as ts.IndexSignatureDeclaration;
    if ((ts.getModifiers(index) ?? []).length > 0 || index.parameters.length !== 1) throw new Unsure("index signature form");
    const params = group([
      indent([
        softline,
        join(
          [", ", softline],
          index.parameters.map((p) => this.functionParametersOne(p)),
        ),
      ]),
      softline,
    ]);
    return [group(["[", params, "]", ": ", this.type(index.type)]), semicolon];
  }
  throw new Unsure(K[node.kind]);
};

declare module "./printer.js" {
  interface Printer {
    functionParametersOne(node: ts.ParameterDeclaration): Doc;
  }
}

Printer.prototype.functionParametersOne = function (this: Printer, node: ts.ParameterDeclaration): Doc {
  if (node.name.kind !== K.Identifier || !node.type) throw new Unsure("index parameter");
  return [node.name.text, ": ", this.type(node.type)];
};
