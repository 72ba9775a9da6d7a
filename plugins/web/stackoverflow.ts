import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import { htmlToText } from "../_shared/html-text.ts";

/** What the code reads of Stack Exchange's common wrapper (`items` and `has_more` always come) and its questions. */
const SeQuestion = v.object({
  question_id: v.number(),
  title: v.string(),
  link: v.string(),
  score: v.number(),
  answer_count: v.number(),
  is_answered: v.boolean(),
  accepted_answer_id: v.optional(v.number()),
  view_count: v.number(),
  tags: v.array(v.string()),
  owner: v.optional(v.object({ display_name: v.optional(v.string()) })),
  creation_date: v.number(),
  last_activity_date: v.number(),
});
const SeWrapper = v.object({
  items: v.array(SeQuestion),
  has_more: v.boolean(),
  quota_remaining: v.optional(v.number()),
  backoff: v.optional(v.number()),
});

const backoffKey = "stackexchange:backoff-until";
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export default defineEndpoint({
  name: "stackoverflow",
  method: "GET",
  price: "$0.01",
  summary: "Search Stack Overflow questions: title, score, answers, accepted flag, tags, link",
  description:
    "Stack Exchange API /search/advanced on stackoverflow. Content is CC BY-SA: credit the author and link the question. When the API asks " +
    "clients to back off, we wait that long before calling it again and answer 503 with Retry-After meanwhile (not charged). Set " +
    "UPSTREAM_STACKEXCHANGE_KEY (a free app key) for 10,000 requests a day instead of 300.",
  input: v.object({
    q: v.pipe(v.string(), v.minLength(1), v.maxLength(300), v.description("Free-text search over titles and bodies")),
    tagged: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z0-9.#+-]+(;[a-z0-9.#+-]+){0,4}$/),
        v.description("Up to 5 tags separated by ;, all required"),
      ),
    ),
    accepted: v.optional(
      v.pipe(v.boolean(), v.description("Only questions with (true) or without (false) an accepted answer")),
    ),
    sort: v.optional(
      v.pipe(v.picklist(["relevance", "votes", "activity", "creation"]), v.description("Order of results")),
      "relevance",
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most questions returned")),
      10,
    ),
  }),
  output: v.object({
    questions: v.array(
      v.object({
        id: v.number(),
        title: v.pipe(v.string(), v.description("Plain text, HTML entities decoded")),
        link: v.string(),
        score: v.number(),
        answers: v.number(),
        accepted: v.boolean(),
        answered: v.pipe(
          v.boolean(),
          v.description("Has an accepted or upvoted answer, as Stack Exchange defines is_answered"),
        ),
        views: v.number(),
        tags: v.array(v.string()),
        author: v.nullable(v.string()),
        createdAt: v.string(),
        lastActivityAt: v.string(),
      }),
    ),
    hasMore: v.boolean(),
    quotaRemaining: v.nullable(v.number()),
  }),
  example: {
    input: { q: "undici fetch timeout", tagged: "node.js", sort: "relevance", limit: 1 },
    output: {
      questions: [
        {
          id: 76555012,
          title: "How to set a timeout with Node's built-in fetch (undici)?",
          link: "https://stackoverflow.com/questions/76555012/how-to-set-a-timeout-with-nodes-built-in-fetch-undici",
          score: 12,
          answers: 2,
          accepted: true,
          answered: true,
          views: 9876,
          tags: ["node.js", "fetch-api", "undici"],
          author: "dev",
          createdAt: "2023-06-26T10:12:03.000Z",
          lastActivityAt: "2024-02-01T08:00:00.000Z",
        },
      ],
      hasMore: true,
      quotaRemaining: 287,
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["stackexchange"],
  async handler({ input, upstream, store, now }) {
    const until = await store.get<number>(backoffKey);
    if (until && until > now().getTime())
      throw unavailable("Stack Exchange asked us to back off", Math.ceil((until - now().getTime()) / 1000));
    const answer = await upstream("stackexchange").json("/search/advanced", SeWrapper, {
      query: {
        site: "stackoverflow",
        order: "desc",
        sort: input.sort,
        q: input.q,
        tagged: input.tagged,
        accepted: input.accepted === undefined ? undefined : input.accepted ? "True" : "False",
        pagesize: input.limit,
      },
    });
    if (answer.backoff) await store.set(backoffKey, now().getTime() + answer.backoff * 1000, answer.backoff * 1000);
    return {
      questions: answer.items.map((q) => ({
        id: q.question_id,
        title: htmlToText(q.title),
        link: q.link,
        score: q.score,
        answers: q.answer_count,
        accepted: q.accepted_answer_id !== undefined,
        answered: q.is_answered,
        views: q.view_count,
        tags: q.tags,
        author: q.owner?.display_name ? htmlToText(q.owner.display_name) : null,
        createdAt: iso(q.creation_date),
        lastActivityAt: iso(q.last_activity_date),
      })),
      hasMore: answer.has_more,
      quotaRemaining: answer.quota_remaining ?? null,
    };
  },
});
