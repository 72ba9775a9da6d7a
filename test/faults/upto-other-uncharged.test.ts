import { uptoCrashTests } from "./_upto.ts";

// Killed before the settlement is sent: nothing is charged, and the retry is told so.
uptoCrashTests(["claimed", "handled", "written-ahead"], "other");
