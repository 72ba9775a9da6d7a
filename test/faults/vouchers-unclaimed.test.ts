import { unclaimedVouchersSurvive } from "./_vouchers.ts";

// Accepted and not yet claimed: in Redis, claimed by the next instance.
unclaimedVouchersSurvive();
