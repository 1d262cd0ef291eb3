import { fail } from '../errors.js';

/**
 * RIFF/WAVE header facts for the audio preview: the format chunk and the data chunk's size. The bytes
 * play through the browser's own decoder; this only says what they are, and refuses what is not a WAV.
 *
 * RIFF: "RIFF" u32 size "WAVE", then chunks (4-byte id, u32 size, data padded to an even length).
 * "fmt ": u16 format, u16 channels, u32 sampleRate, u32 byteRate, u16 blockAlign, u16 bitsPerSample.
 */

export interface WavInfo {
  format: number;
  formatName: string;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  byteRate: number;
  /** The data chunk's declared size. */
  dataBytes: number;
  durationSeconds: number;
}

const FORMAT_NAMES: Record<number, string> = {
  1: 'PCM',
  2: 'MS ADPCM',
  3: 'IEEE float',
  6: 'A-law',
  7: 'µ-law',
  0x11: 'IMA ADPCM',
  0x55: 'MP3',
  0xfffe: 'extensible',
};

function fourcc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
}

export function parseWavHeader(bytes: Uint8Array): WavInfo {
  if (bytes.length < 12) fail('truncated', `WAV header needs 12 bytes, file has ${bytes.length}`);
  if (fourcc(bytes, 0) !== 'RIFF' || fourcc(bytes, 8) !== 'WAVE') fail('bad-count', 'not a WAV file: no RIFF/WAVE signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Omit<WavInfo, 'dataBytes' | 'durationSeconds' | 'formatName'> | null = null;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = fourcc(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length)
        fail('truncated', `WAV fmt chunk at byte ${at} is ${size} bytes, needs 16 within ${bytes.length}`);
      fmt = {
        format: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        byteRate: view.getUint32(body + 8, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) fail('bad-count', `WAV data chunk at byte ${at} comes before any fmt chunk`);
      if (fmt.channels === 0 || fmt.sampleRate === 0) fail('bad-count', `WAV with ${fmt.channels} channels at ${fmt.sampleRate} Hz`);
      const byteRate = fmt.byteRate || (fmt.sampleRate * fmt.channels * fmt.bitsPerSample) / 8;
      return {
        ...fmt,
        formatName: FORMAT_NAMES[fmt.format] ?? `format 0x${fmt.format.toString(16)}`,
        dataBytes: size,
        durationSeconds: byteRate > 0 ? size / byteRate : 0,
      };
    }
    // Chunks are padded to an even length.
    at = body + size + (size & 1);
  }
  fail('truncated', `WAV has no ${fmt ? 'data' : 'fmt'} chunk within its ${bytes.length} bytes`);
}
