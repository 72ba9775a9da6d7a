import { permit2CrashTests } from "./_permit2.ts";

// Killed after the permit's settlement was mined: the other instance reads it off the chain and the retry gets the answer.
permit2CrashTests(["settled"], "other");
