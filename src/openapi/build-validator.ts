// Run by `npm run build` after tsc: writes the OpenAPI 3.0 validator beside validate.js in dist.
import { writeFileSync } from "node:fs";
import { openApi30Source } from "./openapi-30-schema.js";
import { STANDALONE_VALIDATOR } from "./validate.js";

writeFileSync(STANDALONE_VALIDATOR, await openApi30Source());
