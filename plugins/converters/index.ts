import { definePlugin } from "../../core/endpoint.ts";
import barcode from "./barcode.ts";
import base64 from "./base64.ts";
import color from "./color.ts";
import compare from "./compare.ts";
import convert from "./convert.ts";
import cron from "./cron.ts";
import cryptoUnits from "./crypto-units.ts";
import csv2json from "./csv2json.ts";
import decodeJwt from "./decode-jwt.ts";
import diff from "./diff.ts";
import emoji from "./emoji.ts";
import fakeUser from "./fake-user.ts";
import hash from "./hash.ts";
import healthCalc from "./health-calc.ts";
import htmlMd from "./html-md.ts";
import iban from "./iban.ts";
import ics from "./ics.ts";
import jsonPath from "./json-path.ts";
import jsonXml from "./json-xml.ts";
import json2csv from "./json2csv.ts";
import json2yaml from "./json2yaml.ts";
import liqPrice from "./liq-price.ts";
import loan from "./loan.ts";
import lorem from "./lorem.ts";
import luhn from "./luhn.ts";
import markdown from "./markdown.ts";
import mdText from "./md-text.ts";
import morse from "./morse.ts";
import ocr from "./ocr.ts";
import pdfText from "./pdf-text.ts";
import positionSize from "./position-size.ts";
import qr from "./qr.ts";
import random from "./random.ts";
import regex from "./regex.ts";
import roman from "./roman.ts";
import schemaGen from "./schema-gen.ts";
import selector from "./selector.ts";
import sentiment from "./sentiment.ts";
import slugify from "./slugify.ts";
import summarize from "./summarize.ts";
import textStats from "./text-stats.ts";
import timestamp from "./timestamp.ts";
import uuid from "./uuid.ts";
import validateCode from "./validate-code.ts";
import validateJson from "./validate-json.ts";
import xml2json from "./xml2json.ts";
import yaml2json from "./yaml2json.ts";

export default definePlugin({
  family: "converters",
  endpoints: [
    barcode,
    base64,
    color,
    compare,
    convert,
    cron,
    cryptoUnits,
    csv2json,
    decodeJwt,
    diff,
    emoji,
    fakeUser,
    hash,
    healthCalc,
    htmlMd,
    iban,
    ics,
    jsonPath,
    jsonXml,
    json2csv,
    json2yaml,
    liqPrice,
    loan,
    lorem,
    luhn,
    markdown,
    mdText,
    morse,
    ocr,
    pdfText,
    positionSize,
    qr,
    random,
    regex,
    roman,
    schemaGen,
    selector,
    sentiment,
    slugify,
    summarize,
    textStats,
    timestamp,
    uuid,
    validateCode,
    validateJson,
    xml2json,
    yaml2json,
  ],
});
