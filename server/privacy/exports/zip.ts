/**
 * A small ZIP writer (PKWARE APPNOTE 6.3: local headers, deflated or stored entries, the central
 * directory and its end record; no ZIP64, no encryption), enough for a data export's few files.
 * Written on node:zlib (raw deflate and CRC-32) instead of a dependency: decision 0043.
 *
 * Names are UTF-8 (general-purpose flag bit 11); times are the entry's in UTC, in DOS form (two-second
 * steps, 1980–2107). Sizes are checked against ZIP's 32-bit limits: an archive that would need ZIP64
 * is refused rather than written wrong.
 */
import { crc32, deflateRawSync } from "node:zlib";

type ZipEntry = { name: string; data: Uint8Array };

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const UTF8_NAMES = 0x0800;
const VERSION = 20; // 2.0: deflate
const MAX_32 = 0xffffffff;

/** The DOS date and time of `when` (UTC), as ZIP headers hold them. */
function dosTime(when: Date): { time: number; date: number } {
  const year = Math.min(Math.max(when.getUTCFullYear(), 1980), 2107);
  return {
    time: (when.getUTCHours() << 11) | (when.getUTCMinutes() << 5) | Math.floor(when.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((when.getUTCMonth() + 1) << 5) | when.getUTCDate(),
  };
}

/** A valid entry name: relative, "/"-separated, no "..", no backslash, no control characters. */
function assertEntryName(name: string): void {
  const bad = /[\u0000-\u001f\\]/.test(name) || name.startsWith("/") || name.split("/").some((s) => s === "..");
  if (!name || bad || Buffer.byteLength(name) > 0xffff) throw new Error(`Not a ZIP entry name: ${name}`);
}

type EntryFields = {
  method: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  name: number;
};

/**
 * What a local header and the central directory both say of an entry, in the same order (flags,
 * method, time, date, CRC-32, compressed and full size, name length), written from `at`.
 */
function writeEntryFields(header: Buffer, at: number, f: EntryFields): void {
  header.writeUInt16LE(UTF8_NAMES, at);
  header.writeUInt16LE(f.method, at + 2);
  header.writeUInt16LE(f.time, at + 4);
  header.writeUInt16LE(f.date, at + 6);
  header.writeUInt32LE(f.crc, at + 8);
  header.writeUInt32LE(f.compressed, at + 12);
  header.writeUInt32LE(f.size, at + 16);
  header.writeUInt16LE(f.name, at + 20);
}

/**
 * The archive holding `entries`, in their order. Each is deflated, or stored when deflating would
 * not make it smaller (tiny files).
 */
export function createZip(entries: readonly ZipEntry[], when: Date): Buffer {
  const { time, date } = dosTime(when);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    assertEntryName(entry.name);
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
    const deflated = deflateRawSync(data, { level: 9 });
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const crc = crc32(data);
    if (data.length > MAX_32 || body.length > MAX_32 || offset > MAX_32) throw new Error("The archive needs ZIP64.");
    const method = stored ? 0 : 8;

    const fields: EntryFields = {
      method,
      time,
      date,
      crc,
      compressed: body.length,
      size: data.length,
      name: name.length,
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION, 4);
    writeEntryFields(local, 6, fields);
    // extra length: 0
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE((3 << 8) | VERSION, 4); // made by: Unix, 2.0
    central.writeUInt16LE(VERSION, 6);
    writeEntryFields(central, 8, fields);
    // extra length, comment length, disk number, internal attributes: 0
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external: a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  if (entries.length > 0xffff || offset > MAX_32) throw new Error("The archive needs ZIP64.");
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
