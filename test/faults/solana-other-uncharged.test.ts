import { solanaCrashTests } from "./_solana.ts";

// Killed before the transaction is sent: nothing is charged once its blockhash expires, and the payer's retry is told so.
solanaCrashTests(["claimed", "handled", "written-ahead"], "other");
