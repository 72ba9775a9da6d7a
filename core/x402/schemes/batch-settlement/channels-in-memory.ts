import type { ChannelStorage } from "@x402/evm/batch-settlement/server";

type Channel = NonNullable<Awaited<ReturnType<ChannelStorage["get"]>>>;

const channelIdFormat = /^0x[0-9a-fA-F]{64}$/;

const keyOf = (channelId: string) => {
  if (!channelIdFormat.test(channelId)) throw new Error("invalid_batch_settlement_evm_channel_id_invalid");
  return channelId.toLowerCase();
};

/**
 * Channels in this process (the devnet without STORE_URL), as @x402/evm's InMemoryChannelStorage keeps them, without
 * its per-channel lock: an update is a synchronous callback, so under Node's single thread it runs whole before any
 * other, and a voucher's hold and commit need no queue of promises.
 */
export function createChannelsInMemory(): ChannelStorage {
  const channels = new Map<string, Channel>();
  return {
    get: async (channelId) => channels.get(keyOf(channelId)),
    list: async () => [...channels.values()],
    async updateChannel(channelId, update) {
      const key = keyOf(channelId);
      const current = channels.get(key);
      const next = update(current);
      if (next === current) return { channel: current, status: "unchanged" };
      if (!next) {
        channels.delete(key);
        return { channel: undefined, status: current ? "deleted" : "unchanged" };
      }
      channels.set(key, next);
      return { channel: next, status: "updated" };
    },
  };
}
