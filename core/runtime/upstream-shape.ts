import * as v from "valibot";
import { upstreamInvalid } from "./errors.ts";

/**
 * An upstream's answer checked against the shape the code reads, as a caller's input is: anything else is a
 * 502 `upstream_invalid` before the data is used or cached. Text answers (XML, CSV) are checked the same way
 * once parsed.
 */
export function checkUpstream<S extends v.GenericSchema>(upstream: string, shape: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(shape, value);
  if (result.success) return result.output;
  const problems = result.issues.slice(0, 5).map((issue) => `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`);
  throw upstreamInvalid(upstream, problems);
}
