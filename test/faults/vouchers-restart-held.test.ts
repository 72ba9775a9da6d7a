import { voucherCrashTests } from "./_vouchers.ts";

// Killed before a write-ahead record: the hold lapses, the voucher is still good, its retry answered and charged once.
voucherCrashTests(["voucher-held", "handled"], "restart");
