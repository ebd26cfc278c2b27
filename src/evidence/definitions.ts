import { countText, type TokenizerName } from "./tokens.js";

/** What a model request carries of a tool: the generated `toolDefinitions` entry without its `outputSchema`. */
export interface CarriedDefinition {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface DefinitionCount {
  name: string;
  /** Tokens of the description text, and of `JSON.stringify(inputSchema)`. */
  description: number;
  inputSchema: number;
  /** Tokens of the whole definition as JSON: `{ name, description, inputSchema }`. */
  tokens: number;
}

export interface DefinitionsCount {
  tools: DefinitionCount[];
  /** Tokens of the whole list as JSON: every request to the model carries all of the tools. */
  tokens: number;
}

const carried = (d: CarriedDefinition): CarriedDefinition => ({ name: d.name, description: d.description, inputSchema: d.inputSchema });

/** Counts each tool's definition and the list, in the order the generated `toolDefinitions` has them. */
export function countDefinitions(definitions: readonly CarriedDefinition[], tokenizer: TokenizerName): DefinitionsCount {
  const count = (text: string) => countText(text, tokenizer).tokens;
  return {
    tools: definitions.map((d) => ({
      name: d.name,
      description: count(d.description),
      inputSchema: count(JSON.stringify(d.inputSchema)),
      tokens: count(JSON.stringify(carried(d))),
    })),
    tokens: count(JSON.stringify(definitions.map(carried))),
  };
}
