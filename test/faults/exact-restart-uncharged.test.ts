import { crashTests } from "./_steps.ts";

// Killed before the settlement is sent: nothing is charged, and the payer's retry is told so.
crashTests(["claimed", "handled", "written-ahead"], "restart");
