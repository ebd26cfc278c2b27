import { readFileSync } from "node:fs";
const [file, pat] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map(); for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const total = new Map();
const tot = (id) => { if (total.has(id)) return total.get(id); const n = byId.get(id); let t = self.get(id) ?? 0; for (const c of n.children ?? []) t += tot(c); total.set(id, t); return t; };
const agg = new Map();
for (const n of p.nodes) { if (!n.callFrame.url.includes(pat)) continue; const par = byId.get(parent.get(n.id)); if (!par || par.callFrame.url.includes(pat)) continue;
  let q = par; const chain = []; while (q && chain.length < 9) { chain.push(`${q.callFrame.functionName}@${q.callFrame.url.replace(/^.*\//, "")}:${q.callFrame.lineNumber}`); q = byId.get(parent.get(q.id)); }
  const k = chain.join(" < "); agg.set(k, (agg.get(k) ?? 0) + tot(n.id)); }
for (const [k, us] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((us / 1000).toFixed(0).padStart(6), k);
