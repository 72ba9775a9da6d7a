/** One settled funding payment of a perpetual: when, and the rate of that interval. */
export interface FundingPrint {
  time: number;
  rate: string;
}

/**
 * Funding history read a page at a time, as every venue pages it: `read(cursor)` fetches one page (no cursor
 * first), `next(last)` gives the cursor after the page's last print, or undefined when the range is covered.
 * Paging stops at a page shorter than `size`, or after `maxPages` so a misbehaving venue cannot loop. Oldest first.
 */
export async function pagedFunding(
  { size, maxPages }: { size: number; maxPages: number },
  read: (cursor: number | undefined) => Promise<FundingPrint[]>,
  next: (last: FundingPrint) => number | undefined,
): Promise<FundingPrint[]> {
  const prints: FundingPrint[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < maxPages; page++) {
    const got = await read(cursor);
    prints.push(...got);
    if (got.length < size) break;
    cursor = next(got[got.length - 1]);
    if (cursor === undefined) break;
  }
  return prints.sort((a, b) => a.time - b.time);
}
