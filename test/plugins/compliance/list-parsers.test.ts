import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEuFsf, parseOfacSdn, parseUkSanctions } from "../../../plugins/compliance/_list-parsers.ts";

test("list parsers: UK day-first dates, EU entries without a reference number, OFAC without a publish date", () => {
  const uk = parseUkSanctions(
    `<?xml version="1.0" encoding="utf-8"?><Designations><DateGenerated>10/06/2026</DateGenerated><Designation><LastUpdated>16/04/2026</LastUpdated><DateDesignated>29/06/2012</DateDesignated><UniqueID>AFG0001</UniqueID><RegimeName>Afghanistan</RegimeName><IndividualEntityShip>Entity</IndividualEntityShip><Names><Name><Name6>Haji Alim Hawala</Name6><NameType>Alias</NameType></Name><Name><Name6>HAJI KHAIRULLAH MONEY EXCHANGE</Name6><NameType>Primary name</NameType></Name></Names></Designation></Designations>`,
  );
  assert.equal(uk.publishedAt, "2026-06-10");
  assert.deepEqual(
    [uk.entries[0].names, uk.entries[0].listedOn, uk.entries[0].kind],
    [["HAJI KHAIRULLAH MONEY EXCHANGE", "Haji Alim Hawala"], "2012-06-29", "entity"],
  );

  const eu = parseEuFsf(
    `<export generationDate="2026-11-20T18:01:12.356+01:00"><sanctionEntity logicalId="7711" euReferenceNumber=""><subjectType code="enterprise"/><nameAlias wholeName="" firstName="" lastName="Example Trading LLC"/></sanctionEntity></export>`,
  );
  assert.deepEqual(
    [eu.entries[0].id, eu.entries[0].kind, eu.entries[0].names],
    ["7711", "entity", ["Example Trading LLC"]],
  );

  const ofac = parseOfacSdn(
    `<sdnList><sdnEntry><uid>9</uid><lastName>ONLY</lastName><sdnType>Vessel</sdnType></sdnEntry></sdnList>`,
  );
  assert.deepEqual([ofac.publishedAt, ofac.entries[0].kind, ofac.entries[0].addresses], [null, "vessel", []]);
});
