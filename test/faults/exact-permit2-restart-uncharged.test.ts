import { permit2CrashTests } from "./_permit2.ts";

// Killed before the settlement was sent: once the permit's deadline passes unused, nothing is charged and the retry is told so.
permit2CrashTests(["written-ahead"], "restart");
