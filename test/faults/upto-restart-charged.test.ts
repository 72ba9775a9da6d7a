import { uptoCrashTests } from "./_upto.ts";

// Killed after the money moved: the price is credited to the code the retry gets.
uptoCrashTests(["settled", "effects-applied"], "restart");
