import { badRequest } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";
import { MAX_DEPTH } from "./_json.ts";

/** The yaml library, loaded on the first YAML handled rather than at boot. */
export const yamlLibrary = lazy(() => import("yaml"));

const collections = new Set(["block-map", "block-seq", "flow-collection"]);

/**
 * The yaml library composes documents recursively: very deep nesting exhausts the stack, and a second
 * such parse in the same process has crashed Node outright (V8 compiling a regular expression at the
 * stack limit). Its tokenizer is iterative, so nesting is measured there first and deep input refused.
 */
export async function assertYamlDepth(text: string, field: string): Promise<void> {
  const { Parser } = await yamlLibrary();
  let max = 0;
  const stack: [unknown, number][] = [...new Parser().parse(text)].map((token) => [token, 0]);
  while (stack.length && max <= MAX_DEPTH) {
    const [node, depth] = stack.pop()!;
    const here = collections.has((node as { type?: string }).type ?? "") ? depth + 1 : depth;
    max = Math.max(max, here);
    for (const child of Object.values(node as object))
      if (child && typeof child === "object") stack.push([child, here]);
  }
  if (max > MAX_DEPTH) {
    const message = `YAML nested deeper than ${MAX_DEPTH} levels is not supported`;
    throw badRequest(message, { issues: [{ field, message }] });
  }
}
