// One write-ahead log frame as the four servers write it (docs/protocol.md, "Write-ahead log"):
// payload length and CRC-32C, little-endian, then the record. Tests build data dirs with it.

/** CRC-32C (Castagnoli, reflected), as the servers' write-ahead logs. */
export function crc32c(data: Buffer): number {
  let c = ~0 >>> 0;
  for (const b of data) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (0x82f63b78 ^ (c >>> 1)) >>> 0 : c >>> 1;
  }
  return ~c >>> 0;
}

export function walFrame(record: string): Buffer {
  const payload = Buffer.from(record);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(crc32c(payload), 4);
  return Buffer.concat([head, payload]);
}
