/** `search_tickets`, `team-memberships`, `getUser` to `SearchTickets`, `TeamMemberships`, `GetUser`. */
export function pascalCase(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  if (joined === "") return "Unnamed";
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0] === "_" ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** Output key for a list of records: `ticket` to `tickets`, `policy` to `policies`. */
export function plural(name: string): string {
  if (/s$/.test(name)) return name;
  if (/(x|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/** Plain JavaScript identifiers can be written as `a.b`; anything else needs `a["b-c"]`. */
export const isIdentifier = (name: string): boolean => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);

/** Output keys that would change an object's prototype or shadow its methods when assigned. */
export const RESERVED_KEYS = new Set(["__proto__"]);
