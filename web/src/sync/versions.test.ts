import { describe, expect, it } from 'vitest';
import { isNewer, newerWins } from './versions';

const copy = (version: number, label = `v${version}`) => ({ version, label });

describe('newer version wins', () => {
  it('takes the incoming copy when nothing is held', () => {
    expect(newerWins(undefined, copy(1))).toEqual(copy(1));
    expect(newerWins(null, copy(1))).toEqual(copy(1));
  });

  it('keeps a newer held copy and takes a newer incoming one, whichever arrives first', () => {
    const held = copy(3);
    expect(newerWins(held, copy(2))).toBe(held);
    const incoming = copy(4);
    expect(newerWins(held, incoming)).toBe(incoming);
  });

  it('takes the incoming copy on a tie (a reply and the event of the same change)', () => {
    const incoming = copy(3, 'from the event');
    expect(newerWins(copy(3, 'from the reply'), incoming)).toBe(incoming);
  });

  it('drops copies overtaken by a deletion, but not a newer copy (back in view)', () => {
    expect(newerWins(undefined, copy(5), 5)).toBeUndefined();
    expect(newerWins(undefined, copy(4), 5)).toBeUndefined();
    expect(newerWins(undefined, copy(6), 5)).toEqual(copy(6));
    const back = copy(6);
    expect(newerWins(back, copy(4), 5)).toBe(back);
    expect(newerWins(back, copy(7), 5)).toEqual(copy(7));
  });

  it('isNewer: a deletion at a version applies unless the held copy is newer', () => {
    expect(isNewer(undefined, { version: 1 })).toBe(true);
    expect(isNewer(copy(2), { version: 2 })).toBe(true);
    expect(isNewer(copy(3), { version: 2 })).toBe(false);
  });
});
