/**
 * Exactly `npm start`: the built service (dist/core/main.mjs, written by `npm run build`, which bench/run.ts
 * runs first) under plain Node, with its default configuration, its own devnet and in-process facilitator.
 * The runner sets PORT, BASE_URL, LOG_LEVEL=silent and RATE_LIMIT_PER_MINUTE=0. main handles SIGTERM itself.
 */
await import("../../dist/core/main.mjs");
console.log(process.env.BASE_URL);
