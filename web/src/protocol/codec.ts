import { Packr } from 'msgpackr';
import type { ClientMsg, ServerMsg } from './types';

// useRecords: false keeps frames as plain MessagePack maps with field names, which is
// what the Rust side writes with rmp_serde::to_vec_named and expects back.
// int64AsType: 'number' because rmp_serde writes millisecond timestamps (> 2^32) as
// 64-bit integers, which msgpackr would otherwise hand back as BigInt.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, int64AsType: 'number' });

export function encode(value: unknown): Uint8Array {
  return packr.pack(value);
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
