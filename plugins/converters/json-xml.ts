import * as v from "valibot";
import { XMLBuilder } from "fast-xml-parser";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText, isPlainObject, parseJsonField } from "./_json.ts";

const TEXT_KEY = "#text";
const xmlName = /^[A-Za-z_][\w.-]*$/;

export default defineEndpoint({
  name: "json-xml",
  method: "GET",
  price: "$0.005",
  summary: "Convert JSON to XML: objects become elements, arrays repeat their element, prefixed keys become attributes",
  description:
    "Everything is wrapped in one root element; a top-level array, or an array inside an array, becomes <item> " +
    "children. An empty array writes nothing. Keys that are not " +
    "valid XML names are repaired (invalid characters become _, a leading digit gets a _ prefix). Keys starting " +
    "with attributePrefix become attributes and '#text' becomes the element's text. Text is escaped.",
  input: v.object({
    json: documentText("The JSON document as text, at most 100,000 characters"),
    root: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(100),
        v.regex(xmlName, "Expected an XML element name"),
        v.description("Name of the root element"),
      ),
      "root",
    ),
    attributePrefix: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(10), v.description("Keys with this prefix become attributes")),
      "@",
    ),
    pretty: v.optional(v.pipe(v.boolean(), v.description("Indent with two spaces")), true),
    declaration: v.optional(
      v.pipe(v.boolean(), v.description('Start with <?xml version="1.0" encoding="UTF-8"?>')),
      true,
    ),
  }),
  output: v.object({
    xml: v.string(),
  }),
  example: {
    input: {
      json: '{"book":{"@id":"7","title":"Dune & more","tags":["sf","classic"]}}',
      root: "library",
      attributePrefix: "@",
      pretty: true,
      declaration: true,
    },
    output: {
      xml: '<?xml version="1.0" encoding="UTF-8"?>\n<library>\n  <book id="7">\n    <title>Dune &amp; more</title>\n    <tags>sf</tags>\n    <tags>classic</tags>\n  </book>\n</library>\n',
    },
  },
  handler({ input }) {
    const document = parseJsonField(input.json, "json");
    const body = Array.isArray(document) ? { item: document } : document;
    const builder = new XMLBuilder({
      ignoreAttributes: false,
      attributeNamePrefix: input.attributePrefix,
      textNodeName: TEXT_KEY,
      format: input.pretty,
      indentBy: "  ",
      suppressBooleanAttributes: false,
      suppressEmptyNode: false,
      processEntities: true,
    });
    const xml = builder.build({ [input.root]: toXmlShape(body, input.attributePrefix) }) as string;
    const declaration = input.declaration ? `<?xml version="1.0" encoding="UTF-8"?>${input.pretty ? "\n" : ""}` : "";
    return { xml: declaration + xml };
  },
});

/** Repairs names and strips characters XML 1.0 cannot carry, so the builder's output is always well-formed. */
function toXmlShape(value: unknown, prefix: string): unknown {
  if (typeof value === "string") return cleanText(value);
  // an array inside an array has no name of its own to repeat: its elements become <item>s
  if (Array.isArray(value))
    return value.map((item) => (Array.isArray(item) ? { item: toXmlShape(item, prefix) } : toXmlShape(item, prefix)));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      if (key === TEXT_KEY) return [key, toXmlShape(child, prefix)];
      const isAttribute = key.startsWith(prefix) && key.length > prefix.length;
      const name = toXmlName(isAttribute ? key.slice(prefix.length) : key);
      if (isAttribute)
        return [
          prefix + name,
          child !== null && typeof child === "object" ? cleanText(JSON.stringify(child)) : toXmlShape(child, prefix),
        ];
      return [name, toXmlShape(child, prefix)];
    }),
  );
}

function toXmlName(key: string): string {
  const name = key.replace(/[^\p{L}\p{N}_.-]/gu, "_");
  return /^[\p{L}_]/u.test(name) ? name : `_${name}`;
}

const notXmlChars =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const cleanText = (text: string) => text.replace(notXmlChars, "\uFFFD");
