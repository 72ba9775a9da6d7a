import { crashTests } from "./_steps.ts";

// Killed after the money moved: the payer's retry gets the answer, the write applied once.
crashTests(["settled", "effects-applied"], "other");
