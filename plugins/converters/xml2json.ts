import * as v from "valibot";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { documentText } from "./_json.ts";

/**
 * Entities declared in a DTD are expanded, within tight limits: fast-xml-parser does not expand an entity
 * inside another (no billion laughs), refuses external entities, and these caps bound the rest.
 */
const entityLimits = {
  enabled: true,
  maxEntityCount: 50,
  maxEntitySize: 1000,
  maxTotalExpansions: 1000,
  maxExpandedLength: 100_000,
};

export default defineEndpoint({
  name: "xml2json",
  method: "GET",
  price: "$0.005",
  summary: "Convert XML to JSON: elements become keys, repeated elements arrays, attributes prefixed keys",
  description:
    "The XML must be well-formed (errors come back with line and column). Text of an element that also has " +
    "attributes or children sits under '#text'. Character references (&#65;) and HTML entity names are decoded. " +
    "An element that appears once is a single value unless named in " +
    "alwaysArray. The XML declaration, processing instructions and comments are dropped.",
  input: v.object({
    xml: documentText("XML text, at most 100,000 characters"),
    attributes: v.optional(v.pipe(v.boolean(), v.description("Keep attributes")), true),
    attributePrefix: v.optional(v.pipe(v.string(), v.maxLength(10), v.description("Prefix of attribute keys")), "@"),
    parseValues: v.optional(
      v.pipe(v.boolean(), v.description("Turn numeric and true/false text into JSON numbers and booleans")),
      false,
    ),
    alwaysArray: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.maxLength(200))),
        v.maxLength(100),
        v.description("Element names that are always arrays, comma-separated"),
      ),
      [],
    ),
  }),
  output: v.object({
    json: v.pipe(v.unknown(), v.description("The document as JSON")),
  }),
  example: {
    input: {
      xml: '<?xml version="1.0"?><library><book id="7"><title>Dune &amp; more</title><tag>sf</tag><tag>classic</tag></book></library>',
      attributes: true,
      attributePrefix: "@",
      parseValues: false,
      alwaysArray: [],
    },
    output: { json: { library: { book: { title: "Dune & more", tag: ["sf", "classic"], "@id": "7" } } } },
  },
  handler({ input }) {
    const checked = XMLValidator.validate(input.xml);
    if (checked !== true) {
      const { msg, line, col } = checked.err;
      throw badRequest(`The XML is not well-formed: ${msg}`, {
        issues: [{ field: "xml", message: msg, line, column: col ?? 1 }],
      });
    }
    const arrays = new Set(input.alwaysArray);
    const parser = new XMLParser({
      ignoreAttributes: !input.attributes,
      attributeNamePrefix: input.attributePrefix,
      textNodeName: "#text",
      ignoreDeclaration: true,
      ignorePiTags: true,
      parseTagValue: input.parseValues,
      parseAttributeValue: input.parseValues,
      trimValues: true,
      processEntities: entityLimits,
      htmlEntities: true,
      isArray: (name) => arrays.has(name),
    });
    try {
      return { json: parser.parse(input.xml) };
    } catch (error) {
      const message = (error as Error).message;
      throw badRequest(`The XML does not convert: ${message}`, { issues: [{ field: "xml", message }] });
    }
  },
});
