/**
 * Exactly `npm start` (core/main.ts: default configuration, its own devnet and in-process facilitator);
 * the runner sets PORT, BASE_URL, LOG_LEVEL=silent and RATE_LIMIT_PER_MINUTE=0. core/main.ts handles
 * SIGTERM itself (closes the server, stops its anvil).
 */
await import("../../core/main.ts");
console.log(process.env.BASE_URL);
