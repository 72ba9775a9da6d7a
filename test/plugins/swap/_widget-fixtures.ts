import { loadFixture, type Fixture } from "../../helpers/fixtures.ts";
import { dir } from "./_service.ts";

/**
 * The same-chain fixtures (0.01 ETH to USDC on Base) as the widget asks for them: its fee on a $30.0012
 * input is the $0.25 minimum, ceil(0.25 / 30.0012 * 10000) = 84 bps, so only the fee parameters differ.
 */
export async function widgetFixtures(): Promise<Fixture[]> {
  const relay = await loadFixture("relay.same-eth-usdc", dir);
  const lifi = await loadFixture("lifi.cross-usdc-no-route", dir);
  const routes = await loadFixture("kyberswap.routes-eth-usdc", dir);
  const build = await loadFixture("kyberswap.build-eth-usdc", dir);
  const lifiPath = (await loadFixture("lifi.same-eth-usdc", dir)).request.path.replace("fee=0.001", "fee=0.0084");
  return [
    {
      ...relay,
      request: {
        ...relay.request,
        body: {
          ...(relay.request.body as object),
          appFees: [{ recipient: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", fee: "84" }],
        },
      },
    },
    { ...lifi, request: { ...lifi.request, path: lifiPath } },
    { ...routes, request: { ...routes.request, path: routes.request.path.replace("feeAmount=10", "feeAmount=84") } },
    build,
    await loadFixture("defillama.eth", dir),
  ];
}
