import { describe, expect, it } from 'vitest';
import { decode, decodeServerMsg, encode, encodeClientMsg } from './codec';
import type { ClientMsg, ServerMsg } from './types';

describe('codec', () => {
  it('reads 64-bit integers (as rmp_serde writes timestamps) as plain numbers', () => {
    // { createdAt: 1795289991366 } with the value as MessagePack uint64 (0xcf).
    const key = new TextEncoder().encode('createdAt');
    const value = 1_795_289_991_366;
    const bytes = new Uint8Array(1 + 1 + key.length + 9);
    bytes[0] = 0x81;
    bytes[1] = 0xa0 | key.length;
    bytes.set(key, 2);
    bytes[2 + key.length] = 0xcf;
    new DataView(bytes.buffer).setBigUint64(3 + key.length, BigInt(value));
    const decoded = decode<{ createdAt: unknown }>(bytes);
    expect(typeof decoded.createdAt).toBe('number');
    expect(decoded.createdAt).toBe(value);
  });

  it('sends millisecond timestamps as 64-bit integers, never as floats', () => {
    const before = 1_795_289_991_366;
    const bytes = encodeClientMsg({ id: 3, request: { type: 'list_notifications', before } });
    const at = bytes.indexOf(0xd3);
    // int64 (0xd3) with the value; a float64 (0xcb) is what rmp_serde refuses for an i64.
    expect(at).toBeGreaterThan(0);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getBigInt64(at + 1)).toBe(BigInt(before));
    expect(bytes.includes(0xcb)).toBe(false);
    expect(decode(bytes)).toEqual({ id: 3, request: { type: 'list_notifications', before } });
    // Small numbers, fractions and byte arrays go as they did.
    const plain = decode<{ a: number; b: number; c: number; d: Uint8Array }>(encode({ a: 7, b: -3, c: 0.5, d: new Uint8Array([1, 2]) }));
    expect([plain.a, plain.b, plain.c, Array.from(plain.d)]).toEqual([7, -3, 0.5, [1, 2]]);
  });

  it('round-trips a client request as a named map', () => {
    const msg: ClientMsg = { id: 7, request: { type: 'ping' } };
    const bytes = encodeClientMsg(msg);
    // 0x82 = fixmap with two entries: fields travel by name, not as a positional array.
    expect(bytes[0]).toBe(0x82);
    expect(decode(bytes)).toEqual(msg);
  });

  it('round-trips a hello frame with nulls and millisecond timestamps', () => {
    const hello: ServerMsg = {
      type: 'hello',
      protocolVersion: 1,
      serverTime: 1_735_689_600_123,
      user: {
        id: 'u1',
        email: 'a@b.c',
        role: 'admin',
        name: null,
        firstName: 'Ada',
        lastName: null,
        phone: null,
        builderId: null,
        companyId: null,
        companyName: null,
        companyRole: null,
        allProjects: false,
        emailConfirmedAt: 1_735_689_600_000,
        lastSignInAt: null,
        createdAt: 1_700_000_000_000,
        version: 3,
      },
      snapshot: { projects: [], projectCount: 0, nextProjects: null, users: [], online: [], companies: [] },
    };
    const bytes = encode(hello);
    // A fresh ArrayBuffer, as the browser hands binary frames over with binaryType 'arraybuffer'.
    const back = decodeServerMsg(new Uint8Array(bytes).buffer);
    expect(back).toEqual(hello);
  });

  it('rejects a frame that is not a tagged message', () => {
    expect(() => decodeServerMsg(encode([1, 2, 3]))).toThrow();
  });
});
