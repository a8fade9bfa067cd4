import { Packr } from 'msgpackr';
import type { ClientMsg, ServerMsg } from './types';

// useRecords: false keeps frames as plain MessagePack maps with field names, which is
// what the Rust side writes with rmp_serde::to_vec_named and expects back.
// int64AsType: 'number' because rmp_serde writes millisecond timestamps (> 2^32) as
// 64-bit integers, which msgpackr would otherwise hand back as BigInt.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'number' });

export function encode(value: unknown): Uint8Array {
  return packr.pack(wideIntegers(value));
}

/**
 * msgpackr writes a whole number past 32 bits as a float64, which the server refuses
 * where it reads a 64-bit integer (a millisecond timestamp: notifications paged
 * `before` one). As a BigInt it goes as a 64-bit integer, as rmp_serde writes them.
 */
function wideIntegers(value: unknown): unknown {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && (value > 0xffff_ffff || value < -0x8000_0000) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map(wideIntegers);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, wideIntegers(v)]));
}

export function decode<T = unknown>(bytes: ArrayBuffer | Uint8Array): T {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return packr.unpack(view) as T;
}

export function encodeClientMsg(msg: ClientMsg): Uint8Array {
  return encode(msg);
}

export function decodeServerMsg(bytes: ArrayBuffer | Uint8Array): ServerMsg {
  const msg = decode<ServerMsg>(bytes);
  if (msg === null || typeof msg !== 'object' || typeof (msg as { type?: unknown }).type !== 'string') {
    throw new Error('Malformed server frame');
  }
  return msg;
}
