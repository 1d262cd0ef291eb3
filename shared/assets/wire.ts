import { base64ToBytes, bytesToBase64 } from '../bytes/base64.js';
import type { AssetView } from './view.js';

/**
 * The AssetView as it crosses the contract (IPC and HTTP carry JSON): every typed array becomes
 * `{ typed, base64 }` of its bytes, everything else stays as it is. One walk for every view shape (images,
 * meshes with Float32Array positions, nested sections), so a new view field needs no new code here.
 * Float32Array bytes are little-endian, as on every machine Electron and Chromium run on.
 */

export interface WireTypedArray {
  typed: 'Uint8Array' | 'Float32Array' | 'Uint16Array' | 'Uint32Array' | 'Int16Array' | 'Int32Array';
  base64: string;
}

/** A type with every typed array replaced by its wire form. */
export type Wire<T> = T extends Uint8Array | Float32Array | Uint16Array | Uint32Array | Int16Array | Int32Array
  ? WireTypedArray
  : T extends readonly (infer E)[]
    ? Wire<E>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

export type WireAssetView = Wire<AssetView>;

const CONSTRUCTORS = {
  Uint8Array,
  Float32Array,
  Uint16Array,
  Uint32Array,
  Int16Array,
  Int32Array,
} as const;

function typedName(value: ArrayBufferView): WireTypedArray['typed'] | null {
  for (const name of Object.keys(CONSTRUCTORS) as WireTypedArray['typed'][]) if (value instanceof CONSTRUCTORS[name]) return name;
  return null;
}

function encodeValue(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const typed = typedName(value);
    if (!typed) throw new Error(`wire: ${value.constructor.name} is not a typed array the wire form carries`);
    return { typed, base64: bytesToBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) } satisfies WireTypedArray;
  }
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeValue(v);
    return out;
  }
  return value;
}

function isWireTyped(value: unknown): value is WireTypedArray {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.typed === 'string' && typeof v.base64 === 'string' && v.typed in CONSTRUCTORS && Object.keys(v).length === 2;
}

function decodeValue(value: unknown): unknown {
  if (isWireTyped(value)) {
    const bytes = base64ToBytes(value.base64);
    const Ctor = CONSTRUCTORS[value.typed];
    if (bytes.length % Ctor.BYTES_PER_ELEMENT !== 0) throw new Error(`wire: ${bytes.length} bytes are not whole ${value.typed} elements`);
    // base64ToBytes returns a fresh, aligned buffer: view it without a copy.
    return new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length / Ctor.BYTES_PER_ELEMENT);
  }
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = decodeValue(v);
    return out;
  }
  return value;
}

export function encodeAssetView(view: AssetView): WireAssetView {
  return encodeValue(view) as WireAssetView;
}

export function decodeAssetView(wire: WireAssetView): AssetView {
  return decodeValue(wire) as AssetView;
}
