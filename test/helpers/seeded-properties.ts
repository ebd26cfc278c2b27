// A setup file of `npm test`: every property test draws from one fixed seed, so a run fails or passes
// the same way each time, never by luck. PROPERTY_SEED picks another seed to explore further; a
// failure prints the seed and path that replay it.
import fc from "fast-check";

fc.configureGlobal({ seed: Number(process.env["PROPERTY_SEED"] ?? 20261201) });
