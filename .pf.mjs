import { readFileSync } from "node:fs";
const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const mode = process.argv[4] ?? "fn";
const b = new Map();
for (const [id, us] of self) { const n = byId.get(id); const u = n.callFrame.url; const pk = (u.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1]) ?? (u.includes("/dist/") ? "projector:" + u.split("/dist/")[1] : u.replace(/^.*\//, "") || n.callFrame.functionName);
  const k = mode === "pkg" ? pk : `${n.callFrame.functionName || "(anon)"} ${u.replace(/^.*node_modules\//, "").replace(/^.*\/dist\//, "")}:${n.callFrame.lineNumber}`; b.set(k, (b.get(k) ?? 0) + us); }
for (const [k, us] of [...b].sort((a, b) => b[1] - a[1]).slice(0, +(process.argv[3] ?? 30))) console.log((us / 1000).toFixed(0).padStart(6), k);
