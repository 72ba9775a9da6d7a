import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { limitField } from "../_shared/onchain-inputs.ts";

/** Unix seconds within what a Date can hold. */
const Unix = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8_640_000_000_000));
/** What the code reads of a proposal in Snapshot's GraphQL answer. */
const Proposal = v.object({
  id: v.string(),
  title: v.string(),
  state: v.string(),
  author: v.string(),
  created: Unix,
  start: Unix,
  end: Unix,
  choices: v.array(v.string()),
  scores: v.nullable(v.array(v.number())),
  scores_total: v.nullable(v.number()),
  votes: v.nullable(v.number()),
  quorum: v.nullable(v.number()),
  link: v.nullable(v.string()),
  space: v.object({ id: v.string(), name: v.nullable(v.string()) }),
});
/** GraphQL: `data`, or `errors` saying why there is none. */
const Answer = v.object({
  data: v.nullish(v.object({ proposals: v.nullable(v.array(Proposal)) })),
  errors: v.optional(v.array(v.object({ message: v.string() }))),
});

const query = `query Proposals($first: Int!, $where: ProposalWhere) {
  proposals(first: $first, skip: 0, where: $where, orderBy: "created", orderDirection: desc) {
    id title state author created start end choices scores scores_total votes quorum link space { id name }
  }
}`;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export default defineEndpoint({
  name: "snapshot-proposals",
  method: "GET",
  price: "$0.005",
  summary: "Snapshot governance proposals of a DAO space (or all spaces): state, dates, choices, scores, votes",
  description:
    "From the Snapshot hub's GraphQL API, newest first. `state` all (default), active, pending or closed. Without `space`, the newest proposals across every space. Scores are per choice, in the space's voting power; a space with no proposals gives an empty list.",
  input: v.object({
    space: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(64),
        v.regex(/^[a-zA-Z0-9._:-]+$/, "must be a Snapshot space id such as aave.eth"),
        v.description("Snapshot space id, e.g. aave.eth, uniswapgovernance.eth"),
      ),
    ),
    state: v.optional(
      v.pipe(v.picklist(["all", "active", "pending", "closed"]), v.description("Proposal state; all by default")),
      "all",
    ),
    limit: limitField(10, 50, "Most proposals to return"),
  }),
  output: v.object({
    space: v.nullable(v.string()),
    state: v.string(),
    proposals: v.array(
      v.object({
        id: v.string(),
        title: v.string(),
        space: v.object({ id: v.string(), name: v.nullable(v.string()) }),
        state: v.string(),
        author: v.string(),
        createdAt: v.string(),
        startsAt: v.string(),
        endsAt: v.string(),
        choices: v.array(v.string()),
        scores: v.array(v.number()),
        scoresTotal: v.nullable(v.number()),
        votes: v.nullable(v.number()),
        quorum: v.nullable(v.number()),
        leadingChoice: v.pipe(v.nullable(v.string()), v.description("The choice with the highest score so far")),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { space: "aave.eth", state: "closed", limit: 1 },
    output: {
      space: "aave.eth",
      state: "closed",
      proposals: [
        {
          id: "0x9a0d6b5e0c0f1a0e8f2c5f2c8f0c4a3b8e2f4d7c6b5a4e3d2c1b0a9f8e7d6c5b",
          title: "[ARFC] Onboard USDtb to Aave v3 Core Instance",
          space: { id: "aave.eth", name: "Aave" },
          state: "closed",
          author: "0x329c54289Ff5D6B7b7daE13592C6B1EDA1543eD4",
          createdAt: "2025-05-12T09:14:23.000Z",
          startsAt: "2025-05-13T09:14:23.000Z",
          endsAt: "2025-05-16T09:14:23.000Z",
          choices: ["YAE", "NAY", "Abstain"],
          scores: [612345.12, 0, 1200.5],
          scoresTotal: 613545.62,
          votes: 142,
          quorum: 0,
          leadingChoice: "YAE",
          url: "https://snapshot.org/#/aave.eth/proposal/0x9a0d6b5e0c0f1a0e8f2c5f2c8f0c4a3b8e2f4d7c6b5a4e3d2c1b0a9f8e7d6c5b",
        },
      ],
    },
  },
  cacheTtl: 120,
  upstreams: ["snapshot-hub"],
  async handler({ input, upstream }) {
    const where: Record<string, string> = {};
    if (input.space) where.space = input.space;
    if (input.state !== "all") where.state = input.state;
    const answer = await upstream("snapshot-hub").json("/graphql", Answer, {
      method: "POST",
      body: { query, variables: { first: input.limit, where } },
    });
    if (answer.errors?.length || !answer.data)
      throw upstreamFailed(
        "snapshot-hub",
        `Snapshot answered: ${answer.errors?.map((e) => e.message).join("; ") ?? "no data"}`,
      );
    return {
      space: input.space ?? null,
      state: input.state,
      proposals: (answer.data.proposals ?? []).map((p) => {
        const scores = p.scores ?? [];
        const top = scores.length && Math.max(...scores) > 0 ? scores.indexOf(Math.max(...scores)) : -1;
        return {
          id: p.id,
          title: p.title,
          space: { id: p.space.id, name: p.space.name ?? null },
          state: p.state,
          author: p.author,
          createdAt: iso(p.created),
          startsAt: iso(p.start),
          endsAt: iso(p.end),
          choices: p.choices,
          scores,
          scoresTotal: p.scores_total ?? null,
          votes: p.votes ?? null,
          quorum: p.quorum ?? null,
          leadingChoice: top >= 0 ? (p.choices[top] ?? null) : null,
          url: p.link ?? `https://snapshot.org/#/${p.space.id}/proposal/${p.id}`,
        };
      }),
    };
  },
});
