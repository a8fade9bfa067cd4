import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../protocol/types';
import { ClientLog, LOG_BUFFER_SIZE } from './clientLog';
import { RequestError } from './requests';

function recorder(fail?: (entry: LogEntry, n: number) => RequestError | null) {
  const sent: LogEntry[] = [];
  let n = 0;
  const send = (entry: LogEntry) => {
    const error = fail?.(entry, n++) ?? null;
    if (error) return Promise.reject(error);
    sent.push(entry);
    return Promise.resolve();
  };
  return { sent, send };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('client log', () => {
  it('keeps the newest 100 entries in memory', () => {
    const log = new ClientLog(() => Promise.reject(new RequestError({ code: 'not_connected', message: '' })));
    for (let i = 0; i < LOG_BUFFER_SIZE + 20; i += 1) log.add('warn', `w${i}`);
    expect(log.buffer).toHaveLength(100);
    expect(log.buffer[0].message).toBe('w20');
    expect(log.buffer[99].message).toBe(`w${LOG_BUFFER_SIZE + 19}`);
  });

  it('sends errors and warnings, and keeps unsent ones until the socket is back', async () => {
    let connected = false;
    const { sent, send } = recorder(() => (connected ? null : new RequestError({ code: 'not_connected', message: '' })));
    const log = new ClientLog(send);
    log.add('error', 'Failed to load projects', { page: '/dashboard' });
    log.add('warn', 'slow');
    await settle();
    expect(sent).toEqual([]);
    connected = true;
    await log.flush();
    expect(sent).toEqual([
      { level: 'error', message: 'Failed to load projects', data: '{"page":"/dashboard"}' },
      { level: 'warn', message: 'slow', data: null },
    ]);
    await log.flush();
    expect(sent).toHaveLength(2);
  });

  it('waits a minute after the server rate-limits, then sends the rest', async () => {
    let now = 0;
    const { sent, send } = recorder((_e, n) => (n === 1 ? new RequestError({ code: 'rate_limited', message: 'Too many log entries.' }) : null));
    const log = new ClientLog(send, () => now);
    log.add('error', 'a');
    await settle();
    log.add('error', 'b');
    await settle();
    expect(sent.map((e) => e.message)).toEqual(['a']);
    log.add('error', 'c');
    await settle();
    expect(sent.map((e) => e.message)).toEqual(['a']);
    now = 61_000;
    await log.flush();
    expect(sent.map((e) => e.message)).toEqual(['a', 'b', 'c']);
  });

  it('cuts text to the server limits', async () => {
    const { sent, send } = recorder();
    const log = new ClientLog(send);
    log.add('error', 'x'.repeat(5_000), 'y'.repeat(10_000));
    await settle();
    expect(sent[0].message).toHaveLength(2_000);
    expect(sent[0].data).toHaveLength(8_000);
  });
});
