import { type Kind, Node, NodeFlags, type SourceFile } from "./ast.js";
import { Unsure } from "./source.js";

/** A token: its text, where its leading trivia starts, and where it starts and ends. */
interface Token {
  value: string;
  type: "name" | "string" | "number" | "punctuation" | "end";
  pos: number;
  start: number;
  end: number;
}

/**
 * The punctuator at `i`, the longest of those the emitters write (`>=` is not one of them: `>` then
 * `=`); undefined for any other character.
 */
function punctuationAt(text: string, i: number): string | undefined {
  const next = text.charCodeAt(i + 1);
  switch (text.charCodeAt(i)) {
    case 46: // .
      return next === 46 && text.charCodeAt(i + 2) === 46 ? "..." : ".";
    case 61: // =
      return next === 61 ? (text.charCodeAt(i + 2) === 61 ? "===" : "==") : next === 62 ? "=>" : "=";
    case 33: // !
      return next === 61 ? (text.charCodeAt(i + 2) === 61 ? "!==" : "!=") : "!";
    case 63: // ?
      return next === 46 ? "?." : next === 63 ? "??" : "?";
    case 124: // |
      return next === 124 ? "||" : "|";
    case 38: // &
      return next === 38 ? "&&" : "&";
    case 60: // <
      return next === 61 ? "<=" : "<";
    case 123:
      return "{";
    case 125:
      return "}";
    case 40:
      return "(";
    case 41:
      return ")";
    case 91:
      return "[";
    case 93:
      return "]";
    case 59:
      return ";";
    case 44:
      return ",";
    case 58:
      return ":";
    case 62:
      return ">";
    case 45:
      return "-";
    case 43:
      return "+";
    case 42:
      return "*";
    default:
      return undefined;
  }
}

const isNameStart = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
const isNamePart = (code: number) => isNameStart(code) || (code >= 48 && code <= 57);
const isDigit = (code: number) => code >= 48 && code <= 57;

function tokenize(text: string): { tokens: Token[]; comments: number } {
  const tokens: Token[] = [];
  let comments = 0;
  const length = text.length;
  let i = 0;
  let pos = 0;
  for (;;) {
    // Trivia: spaces, line breaks and comments belong to the next token.
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 32 || code === 10 || code === 13 || code === 9) i++;
      else if (code === 47 && text.charCodeAt(i + 1) === 47) {
        comments++;
        const newline = text.indexOf("\n", i);
        i = newline === -1 ? length : newline;
      } else if (code === 47 && text.charCodeAt(i + 1) === 42) {
        comments++;
        const close = text.indexOf("*/", i + 2);
        if (close === -1) throw new Unsure("unclosed comment");
        i = close + 2;
      } else break;
    }
    const start = i;
    if (i >= length) {
      tokens.push({ value: "", type: "end", pos, start, end: start });
      return { tokens, comments };
    }
    const code = text.charCodeAt(i);
    let type: Token["type"];
    // A punctuator is one of a few constant strings, kept rather than sliced off the text again.
    let punctuation: string | undefined;
    if (isNameStart(code)) {
      i++;
      while (i < length && isNamePart(text.charCodeAt(i))) i++;
      type = "name";
    } else if (code === 34 || code === 39) {
      i++;
      for (;;) {
        const c = text.charCodeAt(i);
        if (c === code) break;
        if (c === 92) i += 2;
        else if (c === 10 || i >= length) throw new Unsure("unclosed string");
        else i++;
      }
      i++;
      type = "string";
    } else if (isDigit(code)) {
      while (i < length && (isNamePart(text.charCodeAt(i)) || text.charCodeAt(i) === 46)) i++;
      // Plain decimals only: a method called on a number (`1.5.toFixed()`), hex, bigints and
      // separators are laid out by prettier itself.
      if (!/^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text.slice(start, i))) throw new Unsure("number form");
      type = "number";
    } else {
      punctuation = punctuationAt(text, i);
      if (!punctuation) throw new Unsure(`character ${text[i]}`);
      // `?.` before a digit is `?` then a number, as in `a ? .5 : b`.
      if (punctuation === "?." && isDigit(text.charCodeAt(i + 2))) throw new Unsure("optional chain before a digit");
      i += punctuation.length;
      type = "punctuation";
    }
    tokens.push({ value: punctuation ?? text.slice(start, i), type, pos, start, end: i });
    pos = i;
  }
}

const KEYWORD_TYPES: Record<string, Kind> = {
  string: "StringKeyword",
  number: "NumberKeyword",
  boolean: "BooleanKeyword",
  unknown: "UnknownKeyword",
  never: "NeverKeyword",
  void: "VoidKeyword",
  any: "AnyKeyword",
  undefined: "UndefinedKeyword",
  object: "ObjectKeyword",
};

const BINARY: Record<string, { kind: Kind; precedence: number }> = {
  "??": { kind: "QuestionQuestionToken", precedence: 1 },
  "||": { kind: "BarBarToken", precedence: 2 },
  "&&": { kind: "AmpersandAmpersandToken", precedence: 3 },
  "===": { kind: "EqualsEqualsEqualsToken", precedence: 4 },
  "!==": { kind: "ExclamationEqualsEqualsToken", precedence: 4 },
  "==": { kind: "EqualsEqualsToken", precedence: 4 },
  "!=": { kind: "ExclamationEqualsToken", precedence: 4 },
  "<": { kind: "LessThanToken", precedence: 5 },
  ">": { kind: "GreaterThanToken", precedence: 5 },
  "<=": { kind: "LessThanEqualsToken", precedence: 5 },
};
/** `as` and `satisfies` bind as the relational operators do. */
const CAST_PRECEDENCE = 5;

/**
 * Parses the TypeScript projector emits into ./ast.ts nodes; anything outside that subset throws
 * Unsure, and the file goes to prettier.
 */
export function parse(text: string): SourceFile {
  return new Parser(text).sourceFile();
}

class Parser {
  private readonly tokens: Token[];
  private index = 0;

  private readonly comments: number;

  constructor(private readonly text: string) {
    ({ tokens: this.tokens, comments: this.comments } = tokenize(text));
  }

  private get token(): Token {
    return this.tokens[this.index]!;
  }

  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private is(value: string): boolean {
    const token = this.token;
    return token.value === value && token.type !== "string";
  }

  private take(value: string): Token {
    if (!this.is(value)) throw new Unsure(`expected ${value} at ${this.token.start}`);
    return this.tokens[this.index++]!;
  }

  private eat(value: string): Token | undefined {
    return this.is(value) ? this.tokens[this.index++] : undefined;
  }

  private previousEnd(): number {
    return this.tokens[this.index - 1]!.end;
  }

  /** Starts a node at the current token. */
  private open(kind: Kind): Node {
    const token = this.token;
    return new Node(kind, token.pos, token.start, token.end);
  }

  private close<T extends Node>(node: T): T {
    node.end = this.previousEnd();
    return node;
  }

  private adopt(parent: Node, ...children: (Node | Node[] | undefined)[]): void {
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child === undefined) continue;
      if (Array.isArray(child)) for (let j = 0; j < child.length; j++) child[j]!.parent = parent;
      else child.parent = parent;
    }
  }

  sourceFile(): SourceFile {
    const file = new Node("SourceFile", 0, 0, this.text.length) as SourceFile;
    file.text = this.text;
    file.comments = this.comments;
    const statements: Node[] = [];
    while (this.token.type !== "end") statements.push(this.statement());
    file.statements = statements;
    const end = this.token;
    file.endOfFileToken = new Node("EndOfFileToken", end.pos, end.start, end.end);
    this.adopt(file, statements, file.endOfFileToken);
    return file;
  }

  private statement(): Node {
    const token = this.token;
    if (token.type === "name") {
      switch (token.value) {
        case "import":
          return this.importDeclaration();
        case "export":
          if (this.peek().value === "{" || (this.peek().value === "type" && this.peek(2).value === "{")) return this.exportDeclaration();
          return this.declaration();
        case "const":
        case "let":
        case "interface":
        case "function":
        case "async":
          return this.declaration();
        case "type":
          if (this.peek().type === "name" && this.peek(2).value === "=") return this.declaration();
          break;
        case "return":
          return this.returnStatement();
        case "for":
          return this.forOf();
        case "if":
          return this.ifStatement();
      }
    }
    if (token.value === "{" && token.type === "punctuation") return this.block();
    if (token.value === ";" && token.type === "punctuation") {
      const node = this.open("EmptyStatement");
      this.index++;
      return this.close(node);
    }
    const node = this.open("ExpressionStatement");
    node.expression = this.expression();
    // `target = value;`: an assignment only ever stands as a statement in what projector emits.
    if (this.is("=")) node.expression = this.assignment(node.expression);
    this.take(";");
    this.adopt(node, node.expression);
    return this.close(node);
  }

  private importDeclaration(): Node {
    const node = this.open("ImportDeclaration");
    this.take("import");
    if (this.token.type === "string") {
      node.importClause = undefined;
    } else {
      const clause = this.open("ImportClause");
      clause.isTypeOnly = this.eat("type") !== undefined;
      clause.namedBindings = this.namedSpecifiers("NamedImports", "ImportSpecifier");
      this.adopt(clause, clause.namedBindings);
      node.importClause = this.close(clause);
      this.take("from");
    }
    node.moduleSpecifier = this.stringLiteral();
    this.take(";");
    this.adopt(node, node.importClause, node.moduleSpecifier);
    return this.close(node);
  }

  private exportDeclaration(): Node {
    const node = this.open("ExportDeclaration");
    this.take("export");
    node.isTypeOnly = this.eat("type") !== undefined;
    node.exportClause = this.namedSpecifiers("NamedExports", "ExportSpecifier");
    if (this.eat("from")) node.moduleSpecifier = this.stringLiteral();
    this.take(";");
    this.adopt(node, node.exportClause, node.moduleSpecifier);
    return this.close(node);
  }

  private namedSpecifiers(kind: Kind, specifierKind: Kind): Node {
    const node = this.open(kind);
    this.take("{");
    const elements: Node[] = [];
    while (!this.is("}")) {
      const specifier = this.open(specifierKind);
      specifier.isTypeOnly = this.token.value === "type" && this.peek().type === "name" && this.peek().value !== "as";
      if (specifier.isTypeOnly) this.index++;
      const first = this.identifier();
      if (this.eat("as")) {
        specifier.propertyName = first;
        specifier.name = this.identifier();
      } else specifier.name = first;
      this.adopt(specifier, specifier.propertyName, specifier.name);
      elements.push(this.close(specifier));
      if (!this.eat(",")) break;
    }
    this.take("}");
    node.elements = elements;
    this.adopt(node, elements);
    return this.close(node);
  }

  private modifiers(): Node[] {
    const modifiers: Node[] = [];
    for (;;) {
      if (this.is("export")) modifiers.push(this.keyword("ExportKeyword"));
      else if (this.is("async") && this.peek().value === "function") modifiers.push(this.keyword("AsyncKeyword"));
      else return modifiers;
    }
  }

  private keyword(kind: Kind): Node {
    const node = this.open(kind);
    this.index++;
    return node;
  }

  private declaration(): Node {
    const start = this.token;
    const modifiers = this.modifiers();
    let node: Node;
    const keyword = this.token.value;
    if (keyword === "const" || keyword === "let") {
      node = new Node("VariableStatement", start.pos, start.start, start.end);
      node.declarationList = this.variableDeclarationList();
      this.take(";");
      this.adopt(node, node.declarationList);
    } else if (keyword === "type") {
      node = new Node("TypeAliasDeclaration", start.pos, start.start, start.end);
      this.take("type");
      node.name = this.identifier();
      if (this.is("<")) node.typeParameters = this.typeParameters();
      this.take("=");
      node.type = this.type();
      this.take(";");
      this.adopt(node, node.name, node.typeParameters, node.type);
    } else if (keyword === "interface") {
      node = new Node("InterfaceDeclaration", start.pos, start.start, start.end);
      this.take("interface");
      node.name = this.identifier();
      if (this.is("<")) node.typeParameters = this.typeParameters();
      if (!this.is("{")) throw new Unsure("interface form");
      node.members = this.members();
      this.adopt(node, node.name, node.typeParameters, node.members);
    } else if (keyword === "function") {
      node = new Node("FunctionDeclaration", start.pos, start.start, start.end);
      this.take("function");
      if (this.is("*")) throw new Unsure("generator");
      node.name = this.identifier();
      if (this.is("<")) node.typeParameters = this.typeParameters();
      node.parameters = this.parameters();
      if (this.eat(":")) node.type = this.type();
      node.body = this.block();
      this.adopt(node, node.name, node.typeParameters, node.parameters, node.type, node.body);
    } else throw new Unsure(`declaration ${keyword}`);
    node.modifiers = modifiers.length > 0 ? modifiers : undefined;
    this.adopt(node, modifiers);
    return this.close(node);
  }

  private variableDeclarationList(): Node {
    const node = this.open("VariableDeclarationList");
    node.flags = this.token.value === "const" ? NodeFlags.Const : NodeFlags.Let;
    this.index++;
    const declaration = this.open("VariableDeclaration");
    declaration.name = this.identifier();
    if (this.eat(":")) declaration.type = this.type();
    if (this.eat("=")) declaration.initializer = this.expression();
    this.adopt(declaration, declaration.name, declaration.type, declaration.initializer);
    node.declarations = [this.close(declaration)];
    this.adopt(node, node.declarations);
    return this.close(node);
  }

  private parameters(): Node[] {
    this.take("(");
    const parameters: Node[] = [];
    while (!this.is(")")) {
      const parameter = this.open("Parameter");
      parameter.dotDotDotToken = this.eat("...") ? parameter : undefined;
      parameter.name = this.identifier();
      parameter.questionToken = this.eat("?") ? parameter : undefined;
      if (this.eat(":")) parameter.type = this.type();
      if (this.eat("=")) parameter.initializer = this.expression();
      this.adopt(parameter, parameter.name, parameter.type, parameter.initializer);
      parameters.push(this.close(parameter));
      if (!this.eat(",")) break;
    }
    this.take(")");
    return parameters;
  }

  private block(): Node {
    const node = this.open("Block");
    this.take("{");
    const statements: Node[] = [];
    while (!this.is("}")) {
      if (this.token.type === "end") throw new Unsure("unclosed block");
      statements.push(this.statement());
    }
    this.take("}");
    node.statements = statements;
    this.adopt(node, statements);
    return this.close(node);
  }

  private returnStatement(): Node {
    const node = this.open("ReturnStatement");
    this.take("return");
    // A line break after `return` ends the statement there.
    if (!this.is(";") && this.text.slice(this.previousEnd(), this.token.start).includes("\n")) throw new Unsure("line break after return");
    if (!this.is(";")) node.expression = this.expression();
    this.take(";");
    this.adopt(node, node.expression);
    return this.close(node);
  }

  private forOf(): Node {
    const node = this.open("ForOfStatement");
    this.take("for");
    if (this.is("await")) throw new Unsure("for await");
    this.take("(");
    if (!this.is("const") && !this.is("let")) throw new Unsure("for form");
    const list = this.open("VariableDeclarationList");
    list.flags = this.token.value === "const" ? NodeFlags.Const : NodeFlags.Let;
    this.index++;
    const declaration = this.open("VariableDeclaration");
    declaration.name = this.identifier();
    this.adopt(declaration, declaration.name);
    list.declarations = [this.close(declaration)];
    this.adopt(list, list.declarations);
    node.initializer = this.close(list);
    this.take("of");
    node.expression = this.expression();
    this.take(")");
    node.statement = this.statement();
    this.adopt(node, node.initializer, node.expression, node.statement);
    return this.close(node);
  }

  private ifStatement(): Node {
    const node = this.open("IfStatement");
    this.take("if");
    this.take("(");
    node.expression = this.expression();
    this.take(")");
    node.thenStatement = this.statement();
    if (this.is("else")) throw new Unsure("else");
    this.adopt(node, node.expression, node.thenStatement);
    return this.close(node);
  }

  // ---- expressions

  expression(): Node {
    if (this.isArrowStart()) return this.arrow();
    const condition = this.binary(0);
    if (!this.is("?")) return condition;
    const node = new Node("ConditionalExpression", condition.pos, condition.start, condition.end);
    this.take("?");
    node.condition = condition;
    node.whenTrue = this.expression();
    this.take(":");
    node.whenFalse = this.expression();
    this.adopt(node, node.condition, node.whenTrue, node.whenFalse);
    return this.close(node);
  }

  private isArrowStart(): boolean {
    let i = this.index;
    if (this.tokens[i]!.value === "async" && this.tokens[i + 1]!.value === "(") i++;
    const first = this.tokens[i]!;
    if (first.type === "name" && this.tokens[i + 1]!.value === "=>") return true;
    if (first.value !== "(" || first.type !== "punctuation") return false;
    let depth = 0;
    for (; i < this.tokens.length; i++) {
      const token = this.tokens[i]!;
      if (token.type === "end") return false;
      if (token.type !== "punctuation") continue;
      if (token.value === "(" || token.value === "[" || token.value === "{") depth++;
      else if (token.value === ")" || token.value === "]" || token.value === "}") {
        depth--;
        if (depth === 0) {
          const next = this.tokens[i + 1]!;
          return next.value === "=>" || (next.value === ":" && next.type === "punctuation");
        }
      }
    }
    return false;
  }

  private arrow(): Node {
    const node = this.open("ArrowFunction");
    const modifiers: Node[] = [];
    if (this.is("async")) modifiers.push(this.keyword("AsyncKeyword"));
    if (this.token.type === "name") {
      throw new Unsure("arrow parameter without parentheses");
    }
    node.parameters = this.parameters();
    if (this.eat(":")) node.type = this.type();
    if (this.text.slice(this.previousEnd(), this.token.start).includes("\n")) throw new Unsure("line break before =>");
    this.take("=>");
    node.body = this.is("{") ? this.block() : this.expression();
    node.modifiers = modifiers.length > 0 ? modifiers : undefined;
    this.adopt(node, modifiers, node.parameters, node.type, node.body);
    return this.close(node);
  }

  private assignment(target: Node): Node {
    const operatorToken = this.open("EqualsToken");
    this.index++;
    const node = new Node("BinaryExpression", target.pos, target.start, target.end);
    node.left = target;
    node.operatorToken = operatorToken;
    node.right = this.expression();
    this.adopt(node, node.left, node.operatorToken, node.right);
    return this.close(node);
  }

  private binary(minimum: number): Node {
    let left = this.unary();
    for (;;) {
      const token = this.token;
      if (token.type === "name" && (token.value === "as" || token.value === "satisfies") && CAST_PRECEDENCE > minimum) {
        this.index++;
        const node = new Node(token.value === "as" ? "AsExpression" : "SatisfiesExpression", left.pos, left.start, left.end);
        node.expression = left;
        node.type = this.type();
        this.adopt(node, node.expression, node.type);
        left = this.close(node);
        continue;
      }
      const operator = token.type === "punctuation" ? BINARY[token.value] : undefined;
      if (!operator || operator.precedence <= minimum) return left;
      const operatorToken = this.open(operator.kind);
      this.index++;
      const node = new Node("BinaryExpression", left.pos, left.start, left.end);
      node.left = left;
      node.operatorToken = operatorToken;
      node.right = this.binary(operator.precedence);
      this.adopt(node, node.left, node.operatorToken, node.right);
      left = this.close(node);
    }
  }

  private unary(): Node {
    const token = this.token;
    if (token.type === "punctuation" && (token.value === "!" || token.value === "-" || token.value === "+")) {
      const node = this.open("PrefixUnaryExpression");
      node.operator = token.value === "!" ? "ExclamationToken" : token.value === "-" ? "MinusToken" : "PlusToken";
      this.index++;
      node.operand = this.unary();
      this.adopt(node, node.operand);
      return this.close(node);
    }
    if (token.type === "name" && token.value === "await") {
      const node = this.open("AwaitExpression");
      this.index++;
      node.expression = this.unary();
      this.adopt(node, node.expression);
      return this.close(node);
    }
    if (token.type === "name" && (token.value === "typeof" || token.value === "void" || token.value === "delete"))
      throw new Unsure(token.value);
    return this.postfix(this.primary());
  }

  private postfix(input: Node): Node {
    let node = input;
    for (;;) {
      const token = this.token;
      if (token.type !== "punctuation") return node;
      if (token.value === "." || (token.value === "?." && this.peek().value !== "[" && this.peek().value !== "(")) {
        const access = new Node("PropertyAccessExpression", node.pos, node.start, node.end);
        access.questionDotToken = token.value === "?." ? access : undefined;
        this.index++;
        access.expression = node;
        access.name = this.identifier();
        this.adopt(access, access.expression, access.name);
        node = this.close(access);
      } else if (token.value === "[" || (token.value === "?." && this.peek().value === "[")) {
        const access = new Node("ElementAccessExpression", node.pos, node.start, node.end);
        access.questionDotToken = token.value === "?." ? access : undefined;
        if (token.value === "?.") this.index++;
        this.take("[");
        access.expression = node;
        access.argumentExpression = this.expression();
        this.take("]");
        this.adopt(access, access.expression, access.argumentExpression);
        node = this.close(access);
      } else if (token.value === "(") {
        node = this.callTail(new Node("CallExpression", node.pos, node.start, node.end), node, undefined);
      } else if (token.value === "<") {
        const typeArguments = this.tryTypeArguments();
        if (!typeArguments) return node;
        node = this.callTail(new Node("CallExpression", node.pos, node.start, node.end), node, typeArguments);
      } else if (token.value === "!" || token.value === "?.") {
        throw new Unsure("non-null or optional call");
      } else return node;
    }
  }

  private callTail(call: Node, callee: Node, typeArguments: Node[] | undefined): Node {
    call.expression = callee;
    call.typeArguments = typeArguments;
    call.arguments = this.argumentList();
    this.adopt(call, callee, typeArguments, call.arguments);
    return this.close(call);
  }

  /** `<...>` followed by `(` is a call's type arguments; anything else is not, and nothing is consumed. */
  private tryTypeArguments(): Node[] | undefined {
    const saved = this.index;
    try {
      const typeArguments = this.typeArguments();
      if (this.is("(")) return typeArguments;
    } catch (error) {
      if (!(error instanceof Unsure)) throw error;
    }
    this.index = saved;
    return undefined;
  }

  private argumentList(): Node[] {
    this.take("(");
    const args: Node[] = [];
    while (!this.is(")")) {
      args.push(this.spreadOr());
      if (!this.eat(",")) break;
    }
    this.take(")");
    return args;
  }

  private spreadOr(): Node {
    if (!this.is("...")) return this.expression();
    const node = this.open("SpreadElement");
    this.index++;
    node.expression = this.expression();
    this.adopt(node, node.expression);
    return this.close(node);
  }

  private primary(): Node {
    const token = this.token;
    if (token.type === "string") return this.stringLiteral();
    if (token.type === "number") {
      const node = this.open("NumericLiteral");
      this.index++;
      node.text = token.value;
      return node;
    }
    if (token.type === "name") {
      switch (token.value) {
        case "true":
          return this.keyword("TrueKeyword");
        case "false":
          return this.keyword("FalseKeyword");
        case "null":
          return this.keyword("NullKeyword");
        case "this":
          return this.keyword("ThisKeyword");
        case "new":
          return this.newExpression();
        case "function":
        case "class":
        case "yield":
          throw new Unsure(token.value);
      }
      return this.identifier();
    }
    if (token.value === "(") {
      const node = this.open("ParenthesizedExpression");
      this.index++;
      node.expression = this.expression();
      this.take(")");
      this.adopt(node, node.expression);
      return this.close(node);
    }
    if (token.value === "{") return this.objectLiteral();
    if (token.value === "[") return this.arrayLiteral();
    throw new Unsure(`expression at ${token.start}`);
  }

  private newExpression(): Node {
    const node = this.open("NewExpression");
    this.take("new");
    let callee = this.identifier();
    while (this.is(".")) {
      const access = new Node("PropertyAccessExpression", callee.pos, callee.start, callee.end);
      this.index++;
      access.expression = callee;
      access.name = this.identifier();
      this.adopt(access, access.expression, access.name);
      callee = this.close(access);
    }
    node.expression = callee;
    if (this.is("<")) node.typeArguments = this.typeArguments();
    if (!this.is("(")) throw new Unsure("new without arguments");
    node.arguments = this.argumentList();
    this.adopt(node, node.expression, node.typeArguments, node.arguments);
    return this.close(node);
  }

  private objectLiteral(): Node {
    const node = this.open("ObjectLiteralExpression");
    this.take("{");
    const properties: Node[] = [];
    while (!this.is("}")) {
      properties.push(this.objectProperty());
      if (!this.eat(",")) break;
    }
    this.take("}");
    node.properties = properties;
    this.adopt(node, properties);
    return this.close(node);
  }

  private objectProperty(): Node {
    if (this.is("...")) {
      const node = this.open("SpreadAssignment");
      this.index++;
      node.expression = this.expression();
      this.adopt(node, node.expression);
      return this.close(node);
    }
    const token = this.token;
    if (token.type === "name" && (this.peek().value === "," || this.peek().value === "}")) {
      const node = this.open("ShorthandPropertyAssignment");
      node.name = this.identifier();
      this.adopt(node, node.name);
      return this.close(node);
    }
    const node = this.open("PropertyAssignment");
    node.name = this.propertyName();
    if (this.is("(") || this.is("<")) throw new Unsure("method");
    this.take(":");
    node.initializer = this.expression();
    this.adopt(node, node.name, node.initializer);
    return this.close(node);
  }

  private propertyName(): Node {
    const token = this.token;
    if (token.type === "name") return this.identifier();
    if (token.type === "string") return this.stringLiteral();
    if (token.value === "[") {
      const node = this.open("ComputedPropertyName");
      this.index++;
      node.expression = this.expression();
      this.take("]");
      this.adopt(node, node.expression);
      return this.close(node);
    }
    throw new Unsure("property name");
  }

  private arrayLiteral(): Node {
    const node = this.open("ArrayLiteralExpression");
    this.take("[");
    const elements: Node[] = [];
    while (!this.is("]")) {
      if (this.is(",")) throw new Unsure("array hole");
      elements.push(this.spreadOr());
      if (!this.eat(",")) break;
    }
    this.take("]");
    node.elements = elements;
    this.adopt(node, elements);
    return this.close(node);
  }

  private identifier(): Node {
    const token = this.token;
    if (token.type !== "name") throw new Unsure(`name expected at ${token.start}`);
    const node = this.open("Identifier");
    this.index++;
    node.text = token.value;
    return node;
  }

  private stringLiteral(): Node {
    const token = this.token;
    if (token.type !== "string") throw new Unsure(`string expected at ${token.start}`);
    const node = this.open("StringLiteral");
    this.index++;
    node.text = cooked(token.value);
    return node;
  }

  // ---- types

  type(): Node {
    const start = this.token;
    const leadingBar = this.eat("|");
    const first = this.typeOperand();
    if (!this.is("|")) {
      if (leadingBar) throw new Unsure("union of one");
      return first;
    }
    const node = new Node("UnionType", start.pos, start.start, start.end);
    const types = [first];
    while (this.eat("|")) types.push(this.typeOperand());
    if (this.is("&")) throw new Unsure("intersection");
    node.types = types;
    this.adopt(node, types);
    return this.close(node);
  }

  private typeOperand(): Node {
    if (this.is("&")) throw new Unsure("intersection");
    if (this.is("readonly")) {
      const node = this.open("TypeOperator");
      node.operator = "ReadonlyKeyword";
      this.index++;
      node.type = this.typeOperand();
      this.adopt(node, node.type);
      return this.close(node);
    }
    let node = this.primaryType();
    while (this.is("[")) {
      if (this.peek().value === "]") {
        const array = new Node("ArrayType", node.pos, node.start, node.end);
        this.index += 2;
        array.elementType = node;
        this.adopt(array, node);
        node = this.close(array);
      } else {
        const access = new Node("IndexedAccessType", node.pos, node.start, node.end);
        this.index++;
        access.objectType = node;
        access.indexType = this.type();
        this.take("]");
        this.adopt(access, access.objectType, access.indexType);
        node = this.close(access);
      }
    }
    if (this.is("&")) throw new Unsure("intersection");
    return node;
  }

  private primaryType(): Node {
    const token = this.token;
    if (token.type === "string" || token.type === "number") {
      const node = this.open("LiteralType");
      node.literal = token.type === "string" ? this.stringLiteral() : this.primary();
      this.adopt(node, node.literal);
      return this.close(node);
    }
    if (token.type === "name") {
      const keyword = KEYWORD_TYPES[token.value];
      if (keyword) return this.keyword(keyword);
      if (token.value === "null" || token.value === "true" || token.value === "false") {
        const node = this.open("LiteralType");
        node.literal = this.keyword(token.value === "null" ? "NullKeyword" : token.value === "true" ? "TrueKeyword" : "FalseKeyword");
        this.adopt(node, node.literal);
        return this.close(node);
      }
      if (token.value === "typeof" || token.value === "keyof" || token.value === "infer" || token.value === "unique")
        throw new Unsure(token.value);
      const node = this.open("TypeReference");
      node.typeName = this.identifier();
      if (this.is(".")) throw new Unsure("qualified type name");
      if (this.is("<")) node.typeArguments = this.typeArguments();
      this.adopt(node, node.typeName, node.typeArguments);
      return this.close(node);
    }
    if (token.value === "{") {
      const node = this.open("TypeLiteral");
      node.members = this.members();
      this.adopt(node, node.members);
      return this.close(node);
    }
    if (token.value === "(" && !this.closesBefore("=>")) {
      // Parentheses around a simple type are dropped, as prettier drops them.
      this.index++;
      const inner = this.type();
      this.take(")");
      if (inner.kind === "UnionType" || inner.kind === "FunctionType") throw new Unsure("parenthesized compound type");
      return inner;
    }
    if (token.value === "(") {
      const node = this.open("FunctionType");
      node.parameters = this.parameters();
      this.take("=>");
      node.type = this.type();
      this.adopt(node, node.parameters, node.type);
      return this.close(node);
    }
    throw new Unsure(`type at ${token.start}`);
  }

  /** Whether the bracket at the current token closes right before `value`. */
  private closesBefore(value: string): boolean {
    let depth = 0;
    for (let i = this.index; i < this.tokens.length; i++) {
      const token = this.tokens[i]!;
      if (token.type !== "punctuation") continue;
      if (token.value === "(" || token.value === "[" || token.value === "{") depth++;
      else if (token.value === ")" || token.value === "]" || token.value === "}") {
        depth--;
        if (depth === 0) return this.tokens[i + 1]?.value === value;
      }
    }
    return false;
  }

  /** A declaration's `<Name extends Constraint = Default, …>`. */
  private typeParameters(): Node[] {
    this.take("<");
    const params: Node[] = [];
    while (!this.is(">")) {
      const node = this.open("TypeParameter");
      node.name = this.identifier();
      if (this.eat("extends")) node.constraint = this.type();
      if (this.eat("=")) node.default = this.type();
      this.adopt(node, node.name, node.constraint, node.default);
      params.push(this.close(node));
      if (!this.eat(",")) break;
    }
    this.take(">");
    return params;
  }

  private typeArguments(): Node[] {
    this.take("<");
    const params: Node[] = [];
    while (!this.is(">")) {
      params.push(this.type());
      if (!this.eat(",")) break;
    }
    this.take(">");
    return params;
  }

  private members(): Node[] {
    this.take("{");
    const members: Node[] = [];
    while (!this.is("}")) {
      members.push(this.member());
      if (!this.eat(";") && !this.eat(",")) break;
    }
    this.take("}");
    return members;
  }

  private member(): Node {
    if (this.is("[")) {
      const node = this.open("IndexSignature");
      this.index++;
      const parameter = this.open("Parameter");
      parameter.name = this.identifier();
      this.take(":");
      parameter.type = this.type();
      this.adopt(parameter, parameter.name, parameter.type);
      node.parameters = [this.close(parameter)];
      this.take("]");
      this.take(":");
      node.type = this.type();
      this.adopt(node, node.parameters, node.type);
      return this.close(node);
    }
    const node = this.open("PropertySignature");
    if (this.is("readonly") && this.peek().value !== ":" && this.peek().value !== "?") {
      node.modifiers = [this.keyword("ReadonlyKeyword")];
      this.adopt(node, node.modifiers);
    }
    node.name = this.propertyName();
    node.questionToken = this.eat("?") ? node : undefined;
    if (this.is("(") || this.is("<")) throw new Unsure("method signature");
    this.take(":");
    node.type = this.type();
    this.adopt(node, node.name, node.type);
    return this.close(node);
  }
}

/** A string literal's value; only escapes JSON shares are read, anything else is left to prettier. */
function cooked(raw: string): string {
  const body = raw.slice(1, -1);
  if (!body.includes("\\")) return body;
  if (raw[0] === '"') {
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new Unsure("escape in a string");
    }
  }
  try {
    return JSON.parse(`"${body.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string;
  } catch {
    throw new Unsure("escape in a string");
  }
}
