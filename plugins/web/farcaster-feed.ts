import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";

const o = v.optional;
/** What the code reads of a Snapchain hub page: `messages` always comes; timestamps are uint32 seconds since the Farcaster epoch. */
const CastId = v.object({ fid: v.number(), hash: v.string() });
type CastId = v.InferOutput<typeof CastId>;
const HubMessage = v.object({
  hash: v.string(),
  data: o(
    v.object({
      type: o(v.string()),
      timestamp: o(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2 ** 32 - 1))),
      castAddBody: o(
        v.object({
          text: o(v.string()),
          mentions: o(v.array(v.number())),
          embeds: o(v.array(v.object({ url: o(v.string()), castId: o(CastId) }))),
          parentCastId: o(CastId),
          parentUrl: o(v.string()),
        }),
      ),
      userDataBody: o(v.object({ type: o(v.string()), value: o(v.string()) })),
    }),
  ),
});
const HubPage = v.object({ messages: v.array(HubMessage) });

/** Farcaster timestamps count seconds from 2021-01-01T00:00:00Z. */
const farcasterEpochMs = Date.UTC(2021, 0, 1);
const profileFields: Record<string, "username" | "displayName" | "pfp" | "bio" | "url"> = {
  USER_DATA_TYPE_USERNAME: "username",
  USER_DATA_TYPE_DISPLAY: "displayName",
  USER_DATA_TYPE_PFP: "pfp",
  USER_DATA_TYPE_BIO: "bio",
  USER_DATA_TYPE_URL: "url",
};
const Ref = v.object({ url: v.nullable(v.string()), fid: v.nullable(v.number()), hash: v.nullable(v.string()) });

export default defineEndpoint({
  name: "farcaster-feed",
  method: "GET",
  price: "$0.01",
  summary: "Latest casts of a Farcaster account (by fid), with its profile",
  description:
    "Reads a Snapchain node's HTTP API (castsByFid newest first, userDataByFid); the node is UPSTREAM_SNAPCHAIN_URL, by default the public " +
    "snap.farcaster.xyz. Cast text comes without the mentioned names (Farcaster stores mentions as fids and positions). Reaction and " +
    "reply counts are not included. An fid with neither casts nor profile is a 404.",
  input: v.object({
    fid: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(100_000_000),
      v.description("Farcaster id of the account"),
    ),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(100),
        v.description("Most casts returned, newest first"),
      ),
      20,
    ),
  }),
  output: v.object({
    fid: v.number(),
    profile: v.object({
      username: v.nullable(v.string()),
      displayName: v.nullable(v.string()),
      pfp: v.nullable(v.string()),
      bio: v.nullable(v.string()),
      url: v.nullable(v.string()),
    }),
    casts: v.array(
      v.object({
        hash: v.string(),
        text: v.string(),
        timestamp: v.pipe(v.string(), v.description("ISO 8601 UTC")),
        embeds: v.pipe(v.array(Ref), v.description("Embedded URLs, or quoted casts as fid and hash")),
        mentions: v.pipe(v.array(v.number()), v.description("fids mentioned")),
        parent: v.pipe(
          v.nullable(Ref),
          v.description("The cast replied to, or the channel URL; null for a top-level cast"),
        ),
      }),
    ),
  }),
  example: {
    input: { fid: 3, limit: 1 },
    output: {
      fid: 3,
      profile: {
        username: "dwr.eth",
        displayName: "Dan Romero",
        pfp: "https://imagedelivery.net/BXluQx4ige9GuW0Ia56BHw/6d2b7d9c-3c2a-4b0f-8b0a-1f6a1c0f1a00/original",
        bio: "Working on Farcaster",
        url: null,
      },
      casts: [
        {
          hash: "0x6b7a1d1c3a0f2f4b8f5e9c3d2a1b0c9d8e7f6a5b",
          text: "gm",
          timestamp: "2025-06-30T14:05:21.000Z",
          embeds: [],
          mentions: [],
          parent: null,
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: ["snapchain"],
  async handler({ input, upstream }) {
    const hub = upstream("snapchain");
    const [casts, userData] = await Promise.all([
      hub.json("/castsByFid", HubPage, { query: { fid: input.fid, pageSize: input.limit, reverse: true } }),
      hub.json("/userDataByFid", HubPage, { query: { fid: input.fid } }),
    ]);
    const profile = { username: null, displayName: null, pfp: null, bio: null, url: null } as Record<
      string,
      string | null
    >;
    for (const message of userData.messages) {
      const field = profileFields[message.data?.userDataBody?.type ?? ""];
      if (field) profile[field] = message.data?.userDataBody?.value || null;
    }
    const castAdds = casts.messages.filter((m) => m.data?.type === "MESSAGE_TYPE_CAST_ADD" && m.data.castAddBody);
    if (castAdds.length === 0 && Object.values(profile).every((value) => value === null))
      throw notFound(`no casts or profile for fid ${input.fid}`);
    return {
      fid: input.fid,
      profile: {
        username: profile.username,
        displayName: profile.displayName,
        pfp: profile.pfp,
        bio: profile.bio,
        url: profile.url,
      },
      casts: castAdds.slice(0, input.limit).map((m) => {
        const body = m.data!.castAddBody!;
        return {
          hash: m.hash,
          text: body.text ?? "",
          timestamp: new Date(farcasterEpochMs + (m.data!.timestamp ?? 0) * 1000).toISOString(),
          embeds: (body.embeds ?? []).map((e) =>
            e.castId ? castRef(e.castId) : { url: e.url ?? null, fid: null, hash: null },
          ),
          mentions: body.mentions ?? [],
          parent: body.parentCastId
            ? castRef(body.parentCastId)
            : body.parentUrl
              ? { url: body.parentUrl, fid: null, hash: null }
              : null,
        };
      }),
    };
  },
});

const castRef = (id: CastId) => ({ url: null, fid: id.fid, hash: id.hash });
