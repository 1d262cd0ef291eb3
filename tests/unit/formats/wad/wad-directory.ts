/**
 * A WAD directory read straight from the file's bytes, written here from the format description (header
 * `magic, numlumps, infotableofs`; 32-byte entries `filepos, disksize, size, type, compression, pad[2],
 * name[16]`), independent of the engine under test.
 */
export interface TestLump {
  name: string;
  offset: number;
  size: number;
  type: number;
}

export function readDirectory(bytes: Uint8Array): { magic: string; lumps: TestLump[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  const count = view.getInt32(4, true);
  const dir = view.getInt32(8, true);
  const lumps: TestLump[] = [];
  for (let i = 0; i < count; i++) {
    const at = dir + i * 32;
    const nameBytes = bytes.subarray(at + 16, at + 32);
    const end = nameBytes.indexOf(0);
    lumps.push({
      name: String.fromCharCode(...nameBytes.subarray(0, end < 0 ? 16 : end)),
      offset: view.getInt32(at, true),
      size: view.getInt32(at + 4, true),
      type: bytes[at + 12]!,
    });
  }
  return { magic, lumps };
}

export function lumpBytes(bytes: Uint8Array, lump: TestLump): Uint8Array {
  return bytes.subarray(lump.offset, lump.offset + lump.size);
}
