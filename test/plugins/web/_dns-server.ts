import dgram from "node:dgram";
import type { AddressInfo } from "node:net";

/** Record data the test zone can hold, by type. */
export interface ZoneRecords {
  A?: string[];
  AAAA?: string[];
  MX?: { priority: number; exchange: string }[];
  TXT?: string[][];
  NS?: string[];
  CNAME?: string[];
  PTR?: string[];
  SOA?: {
    nsname: string;
    hostmaster: string;
    serial: number;
    refresh: number;
    retry: number;
    expire: number;
    minttl: number;
  }[];
  CAA?: { flags: number; tag: string; value: string }[];
  SRV?: { priority: number; weight: number; port: number; target: string }[];
}

/** Names (lower case, no trailing dot) with their records; `servfail` names answer SERVFAIL. */
export interface Zone {
  names: Record<string, ZoneRecords>;
  servfail?: string[];
  ttl?: number;
}

const typeCodes: Record<number, keyof ZoneRecords> = {
  1: "A",
  2: "NS",
  5: "CNAME",
  6: "SOA",
  12: "PTR",
  15: "MX",
  16: "TXT",
  28: "AAAA",
  33: "SRV",
  257: "CAA",
};

/** A minimal authoritative DNS responder on 127.0.0.1 (UDP) answering from a table; `queries` lists what it was asked. */
export async function startDnsServer(zone: Zone) {
  const socket = dgram.createSocket("udp4");
  const queries: string[] = [];
  socket.on("message", (message, peer) => {
    const answer = respond(zone, message, queries);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function respond(zone: Zone, query: Buffer, queries: string[]): Buffer | undefined {
  if (query.length < 12) return undefined;
  let offset = 12;
  const labels: string[] = [];
  while (query[offset] !== 0) {
    const length = query[offset];
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString("latin1"));
    offset += length + 1;
  }
  const questionEnd = offset + 5;
  const typeCode = query.readUInt16BE(offset + 1);
  const name = labels.join(".").toLowerCase();
  const type = typeCodes[typeCode];
  queries.push(`${name} ${type ?? typeCode}`);
  const known = zone.names[name];
  const rcode = zone.servfail?.includes(name) ? 2 : known ? 0 : 3;
  const rdatas = rcode === 0 && type ? encodeAll(type, known?.[type] ?? []) : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8000 | 0x0400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rdatas.length, 6);
  const answers = rdatas.map((rdata) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0);
    fixed.writeUInt16BE(typeCode, 2);
    fixed.writeUInt16BE(1, 4);
    fixed.writeUInt32BE(zone.ttl ?? 300, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}

function encodeAll(type: keyof ZoneRecords, records: unknown[]): Buffer[] {
  return records.map((record: any) => {
    switch (type) {
      case "A":
        return Buffer.from(record.split(".").map(Number));
      case "AAAA":
        return ipv6(record);
      case "MX":
        return Buffer.concat([u16(record.priority), name(record.exchange)]);
      case "TXT":
        return Buffer.concat(record.flatMap((s: string) => [Buffer.from([Buffer.byteLength(s)]), Buffer.from(s)]));
      case "NS":
      case "CNAME":
      case "PTR":
        return name(record);
      case "SOA":
        return Buffer.concat([
          name(record.nsname),
          name(record.hostmaster),
          ...[record.serial, record.refresh, record.retry, record.expire, record.minttl].map(u32),
        ]);
      case "CAA":
        return Buffer.concat([
          Buffer.from([record.flags, record.tag.length]),
          Buffer.from(record.tag),
          Buffer.from(record.value),
        ]);
      case "SRV":
        return Buffer.concat([u16(record.priority), u16(record.weight), u16(record.port), name(record.target)]);
    }
  });
}

function name(text: string): Buffer {
  const labels = text
    .split(".")
    .filter(Boolean)
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  return Buffer.concat([...labels, Buffer.from([0])]);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function ipv6(text: string): Buffer {
  const [head, tail = ""] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = text.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return Buffer.concat(groups.map((g) => u16(parseInt(g, 16))));
}
