import { builders, utils } from "prettier/doc";
type Doc = builders.Doc;
import * as ts from "./ast.js";
import { printNumberLiteral, printStringLiteral } from "./literals.js";
import { ArgExpansionBailout, type Args, isBinaryish, isMemberish, isSignedNumber, Printer, skipParentheses } from "./printer.js";
import { Unsure } from "./source.js";

const { group, indent, align, line, softline, ifBreak } = builders;
const { willBreak } = utils;
const K = ts.SyntaxKind;
const trailingComma = ifBreak(",");

declare module "./printer.js" {
  interface Printer {
    member(node: ts.PropertyAccessExpression | ts.ElementAccessExpression): Doc;
    memberLookup(node: ts.PropertyAccessExpression | ts.ElementAccessExpression): Doc;
    arrow(node: ts.ArrowFunction, args: Args): Doc;
    object(node: ts.ObjectLiteralExpression): Doc;
    array(node: ts.ArrayLiteralExpression): Doc;
    conditional(node: ts.ConditionalExpression): Doc;
    binary(node: ts.BinaryExpression): Doc;
    cast(node: ts.AsExpression | ts.SatisfiesExpression): Doc;
    propertyKey(name: ts.PropertyName): Doc;
  }
}

Printer.prototype.stringLiteral = function (this: Printer, node: ts.Node): string {
  if (node.kind !== K.StringLiteral) throw new Unsure("module specifier");
  return printStringLiteral(node.getText(this.file));
};

Printer.prototype.expression = function (this: Printer, node: ts.Expression, args?: Args): Doc {
  if (args !== undefined) return this.expressionUncached(node, args);
  let doc = this.printed.get(node);
  if (doc === undefined) {
    doc = this.expressionUncached(node, {});
    this.printed.set(node, doc);
  }
  return doc;
};

declare module "./printer.js" {
  interface Printer {
    expressionUncached(node: ts.Expression, args: Args): Doc;
  }
}

Printer.prototype.expressionUncached = function (this: Printer, node: ts.Expression, args: Args): Doc {
  switch (node.kind) {
    case K.Identifier:
      return (node as ts.Identifier).text;
    case K.StringLiteral:
      return printStringLiteral(node.getText(this.file));
    case K.NumericLiteral:
      return printNumberLiteral(node.getText(this.file));
    case K.TrueKeyword:
      return "true";
    case K.FalseKeyword:
      return "false";
    case K.NullKeyword:
      return "null";
    case K.ThisKeyword:
      return "this";
    case K.PropertyAccessExpression:
    case K.ElementAccessExpression:
      return this.member(node as ts.PropertyAccessExpression);
    case K.CallExpression:
    case K.NewExpression:
      return this.call(node as ts.CallExpression);
    case K.ArrowFunction:
      return this.arrow(node as ts.ArrowFunction, args);
    case K.ObjectLiteralExpression:
      return this.object(node as ts.ObjectLiteralExpression);
    case K.ArrayLiteralExpression:
      return this.array(node as ts.ArrayLiteralExpression);
    case K.ConditionalExpression:
      return this.conditional(node as ts.ConditionalExpression);
    case K.BinaryExpression:
      return this.binary(node as ts.BinaryExpression);
    case K.AsExpression:
    case K.SatisfiesExpression:
      return this.cast(node as ts.AsExpression);
    case K.AwaitExpression:
      return this.awaitExpression(node as ts.AwaitExpression);
    case K.SpreadElement:
      return ["...", this.expression((node as ts.SpreadElement).expression)];
    case K.PrefixUnaryExpression: {
      const unary = node as ts.PrefixUnaryExpression;
      if (unary.operator !== K.ExclamationToken && unary.operator !== K.MinusToken) throw new Unsure("unary operator");
      if (unary.operand.kind !== K.Identifier && unary.operand.kind !== K.NumericLiteral && !isMemberish(unary.operand))
        throw new Unsure("unary operand");
      return [unary.operator === K.ExclamationToken ? "!" : "-", this.expression(unary.operand)];
    }
    case K.ParenthesizedExpression: {
      const inner = skipParentheses(node);
      // An object literal as an arrow's body is the one place the emitter writes parentheses prettier keeps.
      if (inner.kind === K.ObjectLiteralExpression && node.parent.kind === K.ArrowFunction)
        return ["(", this.object(inner as ts.ObjectLiteralExpression), ")"];
      if (node.parent.kind === K.ReturnStatement && inner.kind !== K.BinaryExpression) return this.expression(inner as ts.Expression, args);
      throw new Unsure("parentheses");
    }
    default:
      throw new Unsure(K[node.kind]);
  }
};

Printer.prototype.awaitExpression = function (this: Printer, node: ts.AwaitExpression): Doc {
  const parent = node.parent;
  const argument = this.expression(node.expression);
  const parts: Doc[] = ["await ", argument];
  if (
    (parent.kind === K.CallExpression && (parent as ts.CallExpression).expression === (node as ts.Node)) ||
    (isMemberish(parent) && (parent as ts.PropertyAccessExpression).expression === (node as ts.Node))
  )
    throw new Unsure("await as callee");
  return parts;
};

declare module "./printer.js" {
  interface Printer {
    awaitExpression(node: ts.AwaitExpression): Doc;
  }
}

Printer.prototype.member = function (this: Printer, node: ts.PropertyAccessExpression | ts.ElementAccessExpression): Doc {
  const object = this.expression(node.expression);
  const lookup = this.memberLookup(node);
  let firstNonMember: ts.Node = node.parent;
  while (isMemberish(firstNonMember) || firstNonMember.kind === K.NonNullExpression) firstNonMember = firstNonMember.parent;
  const computed = node.kind === K.ElementAccessExpression;
  const parent = node.parent;
  const inline =
    (firstNonMember.kind === K.BinaryExpression &&
      (firstNonMember as ts.BinaryExpression).operatorToken.kind === K.EqualsToken &&
      (firstNonMember as ts.BinaryExpression).left.kind !== K.Identifier) ||
    isNewCallee(node) ||
    computed ||
    (node.expression.kind === K.Identifier && !isMemberish(parent)) ||
    ((parent.kind === K.VariableDeclaration || (parent.kind === K.BinaryExpression && isAssignment(parent))) &&
      (isCallWithArguments(skipParentheses(node.expression)) || hasMemberChainLabel(this, node.expression)));
  return [object, inline ? lookup : group(indent([softline, lookup]))];
};

function isAssignment(node: ts.Node): boolean {
  return ts.ASSIGNMENT_OPERATORS.has((node as ts.BinaryExpression).operatorToken.kind);
}

function isNewCallee(node: ts.Node): boolean {
  let current = node;
  for (let parent = current.parent; ; parent = current.parent) {
    if (!(isMemberish(parent) && (parent as ts.PropertyAccessExpression).expression === current) && parent.kind !== K.NonNullExpression)
      return parent.kind === K.NewExpression && (parent as ts.NewExpression).expression === current;
    current = parent;
  }
}

const isCallWithArguments = (node: ts.Node): boolean => node.kind === K.CallExpression && (node as ts.CallExpression).arguments.length > 0;

function hasMemberChainLabel(printer: Printer, node: ts.Node): boolean {
  return (
    node.kind === K.CallExpression &&
    isMemberish((node as ts.CallExpression).expression) &&
    printer.isMemberChain(node as ts.CallExpression)
  );
}

Printer.prototype.memberLookup = function (this: Printer, node: ts.PropertyAccessExpression | ts.ElementAccessExpression): Doc {
  const optional = node.questionDotToken ? "?." : "";
  if (node.kind === K.PropertyAccessExpression) {
    if (node.name.kind !== K.Identifier) throw new Unsure("private name");
    return [optional || ".", node.name.text];
  }
  const property = this.expression(node.argumentExpression);
  if (node.argumentExpression.kind === K.NumericLiteral) return [optional, "[", property, "]"];
  return group([optional, "[", indent([softline, property]), softline, "]"]);
};

Printer.prototype.propertyKey = function (this: Printer, name: ts.PropertyName): Doc {
  if (name.kind === K.Identifier) return name.text;
  if (name.kind === K.StringLiteral) {
    const printed = printStringLiteral(name.getText(this.file));
    if (printed.slice(1, -1) === name.text && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name.text)) return name.text;
    if (!/^[\x00-\x7f]*$/.test(name.text)) throw new Unsure("key outside ASCII");
    return printed;
  }
  if (name.kind === K.ComputedPropertyName) return ["[", this.expression(name.expression), "]"];
  throw new Unsure(`key ${K[name.kind]}`);
};

Printer.prototype.object = function (this: Printer, node: ts.ObjectLiteralExpression): Doc {
  const properties = node.properties;
  if (properties.length === 0) {
    if (this.source.hasNewlineInRange(node.getStart(), node.end) || node.getText(this.file).includes("/"))
      throw new Unsure("empty object form");
    return "{}";
  }
  const first = properties[0]!;
  const shouldBreak = this.source.hasNewlineInRange(node.getStart(), first.getStart());
  let separator: Doc[] = [];
  const printed = properties.map((property) => {
    const parts = [...separator, this.withComments(property, this.objectProperty(property))];
    separator = [",", line];
    if (this.source.nextLineEmpty(property.end)) separator.push(builders.hardline);
    return parts;
  });
  return group(["{", indent([line, ...printed]), trailingComma, line, "}"], { shouldBreak });
};

declare module "./printer.js" {
  interface Printer {
    objectProperty(node: ts.ObjectLiteralElementLike): Doc;
  }
}

Printer.prototype.objectProperty = function (this: Printer, node: ts.ObjectLiteralElementLike): Doc {
  switch (node.kind) {
    case K.PropertyAssignment:
      return this.assignment(node, this.propertyKey(node.name), ":", node.initializer);
    case K.ShorthandPropertyAssignment:
      if (node.objectAssignmentInitializer) throw new Unsure("shorthand initializer");
      return node.name.text;
    case K.SpreadAssignment:
      return ["...", this.expression(node.expression)];
    default:
      throw new Unsure(K[node.kind]);
  }
};

Printer.prototype.array = function (this: Printer, node: ts.ArrayLiteralExpression): Doc {
  const elements = node.elements;
  if (elements.length === 0) {
    if (node.getText(this.file) !== "[]") throw new Unsure("empty array form");
    return "[]";
  }
  if (elements.some((element) => element.kind === K.OmittedExpression)) throw new Unsure("array hole");
  const shouldBreak =
    elements.length > 1 &&
    elements.every((element, i) => {
      const kind = element.kind;
      if (kind !== K.ObjectLiteralExpression && kind !== K.ArrayLiteralExpression) return false;
      const next = elements[i + 1];
      if (next && next.kind !== kind) return false;
      const size =
        kind === K.ArrayLiteralExpression
          ? (element as ts.ArrayLiteralExpression).elements.length
          : (element as ts.ObjectLiteralExpression).properties.length;
      return size > 1;
    });
  if (elements.every(isSignedNumber)) {
    // prettier fills a line with numbers before it breaks, and breaks the trailing comma with the array only.
    const id = Symbol("array");
    const comma = ifBreak(",", "", { groupId: id });
    const parts: Doc[] = [];
    elements.forEach((element, i) => {
      const isLast = i === elements.length - 1;
      parts.push([this.expression(element), isLast ? comma : ","]);
      if (!isLast) parts.push(this.source.nextLineEmpty(element.end) ? [builders.hardline, builders.hardline] : line);
    });
    return group(["[", indent([softline, builders.fill(parts)]), softline, "]"], { id });
  }
  const items: Doc[] = [];
  elements.forEach((element, i) => {
    items.push(group(this.expression(element)));
    if (i < elements.length - 1) items.push([",", line, this.source.nextLineEmpty(element.end) ? softline : ""]);
  });
  return group(["[", indent([softline, items, trailingComma]), softline, "]"], { shouldBreak });
};

Printer.prototype.conditional = function (this: Printer, node: ts.ConditionalExpression): Doc {
  const parent = node.parent;
  if (
    parent.kind === K.ConditionalExpression ||
    node.whenTrue.kind === K.ConditionalExpression ||
    node.whenFalse.kind === K.ConditionalExpression ||
    isMemberish(parent) ||
    (parent.kind === K.CallExpression && (parent as ts.CallExpression).expression === (node as ts.Node))
  )
    throw new Unsure("conditional in a chain");
  const parts = [line, "? ", align(2, this.expression(node.whenTrue)), line, ": ", align(2, this.expression(node.whenFalse))];
  return group([this.expression(node.condition), indent(parts)]);
};

Printer.prototype.binary = function (this: Printer, node: ts.BinaryExpression): Doc {
  const operator = node.operatorToken.kind;
  if (
    operator !== K.ExclamationEqualsEqualsToken &&
    operator !== K.EqualsEqualsEqualsToken &&
    operator !== K.AmpersandAmpersandToken &&
    operator !== K.BarBarToken &&
    operator !== K.QuestionQuestionToken
  )
    throw new Unsure("binary operator");
  if (isBinaryish(skipParentheses(node.left)) || isBinaryish(skipParentheses(node.right))) throw new Unsure("nested binary");
  const parent = node.parent;
  if (parent.kind !== K.ConditionalExpression || (parent as ts.ConditionalExpression).condition !== node)
    throw new Unsure("binary outside a test");
  const grand = parent.parent;
  if (grand.kind === K.ReturnStatement || grand.kind === K.CallExpression) throw new Unsure("binary test placement");
  const right = [node.operatorToken.getText(this.file), line, this.expression(node.right)];
  return group([this.expression(node.left), " ", group(right)]);
};

Printer.prototype.shouldInlineLogical = function (this: Printer, node: ts.BinaryExpression): boolean {
  const operator = node.operatorToken.kind;
  if (operator !== K.AmpersandAmpersandToken && operator !== K.BarBarToken && operator !== K.QuestionQuestionToken) return false;
  const right = skipParentheses(node.right);
  if (right.kind === K.ObjectLiteralExpression) return (right as ts.ObjectLiteralExpression).properties.length > 0;
  if (right.kind === K.ArrayLiteralExpression) return (right as ts.ArrayLiteralExpression).elements.length > 0;
  return false;
};

Printer.prototype.cast = function (this: Printer, node: ts.AsExpression | ts.SatisfiesExpression): Doc {
  const keyword = node.kind === K.SatisfiesExpression ? "satisfies" : "as";
  const isConst = node.type.kind === K.TypeReference && (node.type as ts.TypeReferenceNode).typeName.getText(this.file) === "const";
  const type = isConst ? "const" : this.type(node.type);
  if (node.type.kind !== K.UnionType && this.source.leadingComments(node.type).some((c) => this.source.hasNewline(c.end)))
    throw new Unsure("comment in cast");
  const parts: Doc[] = [this.expression(node.expression), " ", keyword, " ", type];
  const parent = node.parent;
  if (
    ((parent.kind === K.CallExpression || parent.kind === K.NewExpression) &&
      (parent as ts.CallExpression).expression === (node as ts.Node)) ||
    (isMemberish(parent) && (parent as ts.PropertyAccessExpression).expression === (node as ts.Node))
  )
    throw new Unsure("cast as callee or object");
  return parts;
};

Printer.prototype.arrow = function (this: Printer, node: ts.ArrowFunction, args: Args): Doc {
  if (node.typeParameters || node.body.kind === K.ArrowFunction) throw new Unsure("arrow form");
  const isAsync = (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === K.AsyncKeyword);
  const expand = args.expandLastArg === true || args.expandFirstArg === true;
  let returnType: Doc = node.type ? [": ", this.type(node.type)] : "";
  if (expand) {
    if (willBreak(returnType)) throw new ArgExpansionBailout();
    returnType = group(utils.removeLines(returnType));
  }
  const signature: Doc = [isAsync ? "async " : "", group([this.functionParameters(node, expand), returnType])];
  const body = node.body;
  const bodyNode = skipParentheses(body);
  if (this.source.leadingComments(body).length > 0) throw new Unsure("comment before arrow body");
  const bodyDoc = body.kind === K.Block ? this.block(body as ts.Block, true) : this.expression(body as ts.Expression);
  const sameLine =
    bodyNode.kind === K.ArrayLiteralExpression ||
    bodyNode.kind === K.ObjectLiteralExpression ||
    bodyNode.kind === K.Block ||
    bodyNode.kind === K.ArrowFunction ||
    (bodyNode.kind === K.ConditionalExpression && !startsWithObject(bodyNode));
  const comma = args.expandLastArg ? trailingComma : "";
  const space = args.expandLastArg ? softline : "";
  let printedBody: Doc;
  if (sameLine && bodyNode.kind === K.ConditionalExpression)
    printedBody = [" ", group([ifBreak("", "("), indent([softline, bodyDoc]), ifBreak("", ")"), comma, space])];
  else if (sameLine) printedBody = [" ", bodyDoc];
  else printedBody = [indent([line, bodyDoc]), comma, space];
  return group([group(signature), " =>", group(printedBody), ""]);
};

function startsWithObject(node: ts.Node): boolean {
  let current = skipParentheses(node);
  for (;;) {
    if (current.kind === K.ObjectLiteralExpression) return true;
    if (current.kind === K.ConditionalExpression) current = (current as ts.ConditionalExpression).condition;
    else if (current.kind === K.BinaryExpression) current = (current as ts.BinaryExpression).left;
    else if (isMemberish(current) || current.kind === K.CallExpression) current = (current as ts.CallExpression).expression;
    else return false;
  }
}
