import examples from "./_examples.json" with { type: "json" };

/** Real answers, recorded from the race over the fixtures in test/plugins/swap. */
export const swapExample = examples.swap as any;
export const compareExample = examples.compare as any;
export const tradeSolanaExample = (examples as any).tradeSolana;
export const memecoinExample = (examples as any).memecoin;
export const widgetExample = (examples as any).widget;
