import { voucherCrashTests } from "./_vouchers.ts";

// Killed with a write-ahead record: the record is resolved from the channel store; the retry is answered, charged once.
voucherCrashTests(["written-ahead", "settled", "effects-applied"], "restart");
