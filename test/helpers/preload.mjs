// Imported by test/run.mjs into each test file's process before tsx: the packages most files load, so that Node loads
// their modules (about 1,000 of viem's) without tsx's hooks, whose hop to the hooks thread costs each module ~0.6 ms
// of CPU on Node 20. A file that uses none of them pays ~0.4 s for this; most use them.
await Promise.all([import("viem"), import("viem/accounts")]);
