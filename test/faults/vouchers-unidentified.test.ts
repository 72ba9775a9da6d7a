import { unidentifiedVoucherCredited } from "./_vouchers.ts";

// A voucher without a payment identifier keeps no answer: killed after its commit, its price is credited to its payer.
unidentifiedVoucherCredited();
