import { solanaCrashTests } from "./_solana.ts";

// Killed after the transaction landed: the payer's retry gets the answer, the write applied once.
solanaCrashTests(["settled", "effects-applied"], "other");
