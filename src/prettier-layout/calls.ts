import { builders, utils } from "prettier/doc";
type Doc = builders.Doc;
import * as ts from "./ast.js";
import { ArgExpansionBailout, isBinaryish, isLiteral, isMemberish, isSignedNumber, Printer, skipParentheses } from "./printer.js";
import { Unsure } from "./source.js";

const { group, indent, line, softline, hardline, ifBreak, conditionalGroup, breakParent, label, join } = builders;
const { willBreak } = utils;
const K = ts.SyntaxKind;
const trailingComma = ifBreak(",");

type Call = ts.CallExpression | ts.NewExpression;

declare module "./printer.js" {
  interface Printer {
    call(node: Call): Doc;
    callArguments(node: Call): Doc;
    memberChain(node: ts.CallExpression): Doc;
  }
}

const TEST_CALLEE = /^(?:skip|[fx]?(?:it|describe|test))$/;

Printer.prototype.call = function (this: Printer, node: Call): Doc {
  const isNew = node.kind === K.NewExpression;
  const callee = node.expression;
  if (!isNew && (node as ts.CallExpression).questionDotToken) throw new Unsure("optional call");
  if (ts.isIdentifier(callee) && (TEST_CALLEE.test(callee.text) || callee.text === "require" || callee.text === "define"))
    throw new Unsure("call prettier keeps whole");
  if (isMemberish(callee) && isTestLikeMember(callee)) throw new Unsure("test call");
  const args = node.arguments ?? [];
  if (args.length === 1 && (args[0]!.kind === K.TemplateExpression || args[0]!.kind === K.NoSubstitutionTemplateLiteral))
    throw new Unsure("template argument");
  if (!isNew && isMemberish(callee)) return this.memberChain(node as ts.CallExpression);
  const typeArguments = node.typeArguments ? this.typeArguments(node.typeArguments) : "";
  const contents: Doc = [isNew ? "new " : "", this.expression(callee), typeArguments, this.callArguments(node)];
  return callee.kind === K.CallExpression ? group(contents) : contents;
};

function isTestLikeMember(node: ts.Node): boolean {
  let current = node;
  while (isMemberish(current)) current = (current as ts.PropertyAccessExpression).expression;
  return current.kind === K.Identifier && TEST_CALLEE.test((current as ts.Identifier).text);
}

Printer.prototype.isMemberChain = function (this: Printer, node: ts.CallExpression): boolean {
  // The call's own doc, printed once: a member chain is labelled so.
  const doc = this.expression(node) as { label?: { memberChain?: boolean } };
  return doc.label?.memberChain === true;
};

Printer.prototype.callArguments = function (this: Printer, node: Call): Doc {
  const args = node.arguments ?? [];
  if (args.length === 0) {
    if (/\/[/*]/.test(node.getText(this.file).slice(node.expression.end - node.getStart()))) throw new Unsure("comment in arguments");
    return "()";
  }
  for (const arg of args)
    if (this.source.leadingComments(arg).length > 0 || this.source.trailingComments(arg).length > 0)
      throw new Unsure("comment in arguments");
  if (isReactHookCall(args)) throw new Unsure("hook call");
  const last = args.length - 1;
  let anyArgEmptyLine = false;
  const printed = args.map((arg, i) => {
    const doc = this.expression(arg);
    if (i === last) return doc;
    if (this.source.nextLineEmpty(arg.end)) {
      anyArgEmptyLine = true;
      return [doc, ",", hardline, hardline];
    }
    return [doc, ",", line];
  });
  const allArgsBrokenOut = () => group(["(", indent([line, ...printed]), trailingComma, line, ")"], { shouldBreak: true });
  if (anyArgEmptyLine || isFunctionCompositionArgs(args)) return allArgsBrokenOut();
  if (shouldExpandFirstArg(args)) {
    const tail = printed.slice(1);
    if (tail.some(willBreak)) return allArgsBrokenOut();
    let first: Doc;
    try {
      first = this.expression(args[0]!, { expandFirstArg: true });
    } catch (error) {
      if (error instanceof ArgExpansionBailout) return allArgsBrokenOut();
      throw error;
    }
    const firstWithComma = (doc: Doc) => ["(", doc, ", ", ...tail, ")"];
    if (willBreak(first)) return [breakParent, conditionalGroup([firstWithComma(group(first, { shouldBreak: true })), allArgsBrokenOut()])];
    return conditionalGroup([firstWithComma(first), firstWithComma(group(first, { shouldBreak: true })), allArgsBrokenOut()]);
  }
  if (this.shouldExpandLastArg(args)) {
    const head = printed.slice(0, -1);
    if (head.some(willBreak)) return allArgsBrokenOut();
    let lastDoc: Doc;
    try {
      lastDoc = this.expression(args[last]!, { expandLastArg: true });
    } catch (error) {
      if (error instanceof ArgExpansionBailout) return allArgsBrokenOut();
      throw error;
    }
    if (willBreak(lastDoc))
      return [breakParent, conditionalGroup([["(", ...head, group(lastDoc, { shouldBreak: true }), ")"], allArgsBrokenOut()])];
    return conditionalGroup([["(", ...head, lastDoc, ")"], ["(", ...head, group(lastDoc, { shouldBreak: true }), ")"], allArgsBrokenOut()]);
  }
  const contents = ["(", indent([softline, ...printed]), trailingComma, softline, ")"];
  if (isLongCurriedCall(node)) return contents;
  return group(contents, { shouldBreak: printed.some(willBreak) || anyArgEmptyLine });
};

declare module "./printer.js" {
  interface Printer {
    shouldExpandLastArg(args: readonly ts.Expression[]): boolean;
  }
}

Printer.prototype.shouldExpandLastArg = function (this: Printer, args: readonly ts.Expression[]): boolean {
  const lastArg = args.at(-1)!;
  const penultimate = args.at(-2);
  return (
    couldExpandArg(lastArg) &&
    (!penultimate || kindForComparison(penultimate) !== kindForComparison(lastArg)) &&
    (args.length !== 2 || penultimate!.kind !== K.ArrowFunction || skipParentheses(lastArg).kind !== K.ArrayLiteralExpression) &&
    !(args.length > 1 && isConciselyPrintedArray(lastArg))
  );
};

/** ESTree's node type, which prettier compares: TypeScript's parentheses are not nodes there. */
const kindForComparison = (node: ts.Node): ts.Kind => skipParentheses(node).kind;

function isConciselyPrintedArray(node: ts.Node): boolean {
  const array = skipParentheses(node);
  return (
    array.kind === K.ArrayLiteralExpression &&
    (array as ts.ArrayLiteralExpression).elements.length > 0 &&
    (array as ts.ArrayLiteralExpression).elements.every(isSignedNumber)
  );
}

function couldExpandArg(node: ts.Node, arrowChainRecursion = false): boolean {
  const arg = skipParentheses(node);
  if (arg.kind === K.ObjectLiteralExpression) return (arg as ts.ObjectLiteralExpression).properties.length > 0;
  if (arg.kind === K.ArrayLiteralExpression) return (arg as ts.ArrayLiteralExpression).elements.length > 0;
  if (arg.kind === K.AsExpression || arg.kind === K.SatisfiesExpression || arg.kind === K.TypeAssertionExpression)
    return couldExpandArg((arg as ts.AsExpression).expression);
  if (arg.kind === K.FunctionExpression) return true;
  if (arg.kind === K.ArrowFunction) {
    const body = skipParentheses((arg as ts.ArrowFunction).body);
    if (body.kind === K.Block || body.kind === K.ObjectLiteralExpression || body.kind === K.ArrayLiteralExpression) return true;
    if (body.kind === K.ArrowFunction && couldExpandArg(body, true)) return true;
    if (!arrowChainRecursion && (body.kind === K.ConditionalExpression || body.kind === K.CallExpression || body.kind === K.NewExpression))
      return true;
  }
  return false;
}

function isFunctionCompositionArgs(args: readonly ts.Expression[]): boolean {
  if (args.length <= 1) return false;
  let functions = 0;
  for (const node of args) {
    const arg = skipParentheses(node);
    if (arg.kind === K.ArrowFunction || arg.kind === K.FunctionExpression) {
      functions += 1;
      if (functions > 1) return true;
    } else if (arg.kind === K.CallExpression || arg.kind === K.NewExpression) {
      for (const inner of (arg as ts.CallExpression).arguments ?? []) {
        const kind = skipParentheses(inner).kind;
        if (kind === K.ArrowFunction || kind === K.FunctionExpression) return true;
      }
    }
  }
  return false;
}

function shouldExpandFirstArg(args: readonly ts.Expression[]): boolean {
  if (args.length !== 2) return false;
  const first = skipParentheses(args[0]!);
  const second = skipParentheses(args[1]!);
  return (
    (first.kind === K.FunctionExpression || (first.kind === K.ArrowFunction && (first as ts.ArrowFunction).body.kind === K.Block)) &&
    second.kind !== K.FunctionExpression &&
    second.kind !== K.ArrowFunction &&
    second.kind !== K.ConditionalExpression &&
    isHopefullyShortCallArgument(second) &&
    !couldExpandArg(second)
  );
}

function isHopefullyShortCallArgument(node: ts.Node): boolean {
  if (node.kind === K.AsExpression || node.kind === K.SatisfiesExpression) throw new Unsure("cast after a function argument");
  if ((node.kind === K.CallExpression || node.kind === K.NewExpression) && ((node as ts.CallExpression).arguments?.length ?? 0) > 1)
    return false;
  if (isBinaryish(node))
    return isSimpleCallArgument((node as ts.BinaryExpression).left, 1) && isSimpleCallArgument((node as ts.BinaryExpression).right, 1);
  return node.kind === K.RegularExpressionLiteral || isSimpleCallArgument(node);
}

/** prettier's isSimpleCallArgument. */
export function isSimpleCallArgument(input: ts.Node, depth = 2): boolean {
  if (depth <= 0) return false;
  const node = skipParentheses(input);
  const simple = (child: ts.Node) => isSimpleCallArgument(child, depth - 1);
  if (isLiteral(node) || node.kind === K.Identifier || node.kind === K.ThisKeyword || node.kind === K.SuperKeyword) return true;

  if (node.kind === K.ObjectLiteralExpression)
    return (node as ts.ObjectLiteralExpression).properties.every(
      (p) =>
        p.kind === K.ShorthandPropertyAssignment ||
        (p.kind === K.PropertyAssignment && p.name.kind !== K.ComputedPropertyName && simple(p.initializer)),
    );
  if (node.kind === K.ArrayLiteralExpression)
    return (node as ts.ArrayLiteralExpression).elements.every((e) => e.kind === K.OmittedExpression || simple(e));
  if (node.kind === K.CallExpression || node.kind === K.NewExpression) {
    const call = node as ts.CallExpression;
    if (isSimpleCallArgument(call.expression, depth)) {
      const args = call.arguments ?? [];
      return args.length <= depth && args.every(simple);
    }
    return false;
  }
  if (node.kind === K.PropertyAccessExpression) return isSimpleCallArgument((node as ts.PropertyAccessExpression).expression, depth);
  if (node.kind === K.ElementAccessExpression)
    return (
      isSimpleCallArgument((node as ts.ElementAccessExpression).expression, depth) &&
      isSimpleCallArgument((node as ts.ElementAccessExpression).argumentExpression, depth)
    );
  if (node.kind === K.PrefixUnaryExpression) {
    const operator = (node as ts.PrefixUnaryExpression).operator;
    if (operator === K.ExclamationToken || operator === K.MinusToken || operator === K.PlusToken || operator === K.TildeToken)
      return isSimpleCallArgument((node as ts.PrefixUnaryExpression).operand, depth);
    if (operator === K.PlusPlusToken || operator === K.MinusMinusToken)
      return isSimpleCallArgument((node as ts.PrefixUnaryExpression).operand, depth);
    return false;
  }
  if (node.kind === K.PostfixUnaryExpression) return isSimpleCallArgument((node as ts.PostfixUnaryExpression).operand, depth);
  return false;
}

function isReactHookCall(args: readonly ts.Expression[]): boolean {
  const hookAt = (base: number) => {
    const fn = args[base]!;
    const deps = args[base + 1]!;
    return (
      fn.kind === K.ArrowFunction &&
      (fn as ts.ArrowFunction).parameters.length === 0 &&
      (fn as ts.ArrowFunction).body.kind === K.Block &&
      deps.kind === K.ArrayLiteralExpression
    );
  };
  if (args.length === 2) return hookAt(0);
  if (args.length === 3) return args[0]!.kind === K.Identifier && hookAt(1);
  return false;
}

function isLongCurriedCall(node: Call): boolean {
  const parent = node.parent;
  return (
    node.kind === K.CallExpression &&
    parent.kind === K.CallExpression &&
    (parent as ts.CallExpression).expression === node &&
    (parent as ts.CallExpression).arguments.length > 0 &&
    node.arguments.length > (parent as ts.CallExpression).arguments.length
  );
}

interface ChainLink {
  node: ts.Node;
  printed: Doc;
}

Printer.prototype.memberChain = function (this: Printer, node: ts.CallExpression): Doc {
  const isExpressionStatement = node.parent.kind === K.ExpressionStatement;
  const links: ChainLink[] = [];
  const typeArgs = (call: ts.CallExpression) => (call.typeArguments ? this.typeArguments(call.typeArguments) : "");
  links.unshift({ node, printed: [typeArgs(node), this.callArguments(node)] });
  let current: ts.Node = node.expression;
  for (;;) {
    if (
      current.kind === K.CallExpression &&
      (isMemberish((current as ts.CallExpression).expression) || (current as ts.CallExpression).expression.kind === K.CallExpression)
    ) {
      const call = current as ts.CallExpression;
      if (call.questionDotToken) throw new Unsure("optional call in chain");
      if (this.source.nextLineEmpty(call.end)) throw new Unsure("empty line in chain");
      links.unshift({ node: call, printed: [typeArgs(call), this.callArguments(call)] });
      current = call.expression;
    } else if (isMemberish(current)) {
      links.unshift({ node: current, printed: this.memberLookup(current as ts.PropertyAccessExpression) });
      current = (current as ts.PropertyAccessExpression).expression;
    } else if (current.kind === K.NonNullExpression || current.kind === K.ParenthesizedExpression) {
      throw new Unsure("chain form");
    } else {
      links.unshift({ node: current, printed: this.expression(current as ts.Expression) });
      break;
    }
  }
  const isCall = (n: ts.Node) => n.kind === K.CallExpression;
  const isNumericLookup = (n: ts.Node) =>
    n.kind === K.ElementAccessExpression && (n as ts.ElementAccessExpression).argumentExpression.kind === K.NumericLiteral;
  const groups: ChainLink[][] = [];
  let currentGroup = [links[0]!];
  let i = 1;
  for (; i < links.length; ++i) {
    const n = links[i]!.node;
    if (isCall(n) || isNumericLookup(n)) currentGroup.push(links[i]!);
    else break;
  }
  if (!isCall(links[0]!.node)) {
    for (; i + 1 < links.length; ++i) {
      if (isMemberish(links[i]!.node) && isMemberish(links[i + 1]!.node)) currentGroup.push(links[i]!);
      else break;
    }
  }
  groups.push(currentGroup);
  currentGroup = [];
  let seenCall = false;
  for (; i < links.length; ++i) {
    const n = links[i]!.node;
    if (seenCall && isMemberish(n)) {
      if (isNumericLookup(n)) {
        currentGroup.push(links[i]!);
        continue;
      }
      groups.push(currentGroup);
      currentGroup = [];
      seenCall = false;
    }
    if (isCall(n)) seenCall = true;
    currentGroup.push(links[i]!);
  }
  if (currentGroup.length > 0) groups.push(currentGroup);

  const isFactory = (name: string) => /^[A-Z]|^[$_]+$/.test(name);
  const isShort = (name: string) => name.length <= 2;
  const shouldNotWrap = (all: ChainLink[][]) => {
    const hasComputed = all[1]![0]?.node.kind === K.ElementAccessExpression;
    if (all[0]!.length === 1) {
      const first = all[0]![0]!.node;
      return (
        first.kind === K.ThisKeyword ||
        (first.kind === K.Identifier &&
          (isFactory((first as ts.Identifier).text) || (isExpressionStatement && isShort((first as ts.Identifier).text)) || hasComputed))
      );
    }
    const lastNode = all[0]!.at(-1)!.node;
    return lastNode.kind === K.PropertyAccessExpression && (isFactory((lastNode as ts.PropertyAccessExpression).name.text) || hasComputed);
  };
  const shouldMerge = groups.length >= 2 && shouldNotWrap(groups);
  const printGroup = (g: ChainLink[]) => g.map((link) => link.printed);
  const printedGroups = groups.map(printGroup);
  const oneLine = printedGroups;
  const cutoff = shouldMerge ? 3 : 2;
  if (groups.length <= cutoff) return isLongCurriedCall(node) ? oneLine : group(oneLine);
  const printIndented = (rest: ChainLink[][]) => (rest.length === 0 ? "" : indent([hardline, join(hardline, rest.map(printGroup))]));
  const expanded = [
    printGroup(groups[0]!),
    shouldMerge ? groups.slice(1, 2).map(printGroup) : "",
    printIndented(groups.slice(shouldMerge ? 2 : 1)),
  ];
  const calls = links.map((link) => link.node).filter(isCall) as ts.CallExpression[];
  const lastGroupWillBreakAndOtherCallsHaveFunctionArguments = () => {
    const lastNode = groups.at(-1)!.at(-1)!.node;
    return (
      isCall(lastNode) &&
      willBreak(printedGroups.at(-1)!) &&
      calls.slice(0, -1).some((call) => call.arguments.some((arg) => arg.kind === K.ArrowFunction || arg.kind === K.FunctionExpression))
    );
  };
  let result: Doc;
  if (
    (calls.length > 2 && calls.some((call) => !call.arguments.every((arg) => isSimpleCallArgument(arg)))) ||
    printedGroups.slice(0, -1).some(willBreak) ||
    lastGroupWillBreakAndOtherCallsHaveFunctionArguments()
  )
    result = group(expanded);
  else result = [willBreak(oneLine) ? breakParent : "", conditionalGroup([oneLine, expanded])];
  return label({ memberChain: true }, result);
};
