/** The spec's human fee: 0.15% with a $0.25 minimum. */
export const humanFee = { rateBps: 15, minimumUsd: 0.25 };
/** Below this the $0.25 minimum would pass 2.5% of the swap: the widget refuses smaller swaps. */
export const humanMinimumInputUsd = 10;
