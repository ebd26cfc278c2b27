import Parser from "@apidevtools/swagger-parser";
const p = new Parser();
const path = process.argv[2];
let t = performance.now();
await p.resolve(path, { resolve: { external: true, http: false } });
console.log("resolve", performance.now() - t); t = performance.now();
await p.bundle(path, p.api, { resolve: { external: true, http: false } });
console.log("bundle", performance.now() - t);
