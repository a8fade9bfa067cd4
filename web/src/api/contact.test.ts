import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTACT_FAILED, CONTACT_SENT_FALLBACK, CONTACT_UNKNOWN_ERROR, sendContactMessage } from './contact';

const body = { name: 'Jane', email: 'jane@example.com', phone: null, message: 'Hello' };

function respond(status: number, payload: unknown) {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const fetchMock = vi.fn(async () => new Response(text, { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sendContactMessage', () => {
  it('posts the JSON body to /api/contact', async () => {
    const fetchMock = respond(200, { message: 'Thanks!' });
    await sendContactMessage(body);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/contact');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual(body);
  });

  it('shows the server message on success', async () => {
    respond(200, { message: "Thanks — we'll be in touch." });
    expect(await sendContactMessage(body)).toEqual({ status: 'success', message: "Thanks — we'll be in touch." });
  });

  it('falls back when the success reply has no message', async () => {
    respond(200, {});
    expect(await sendContactMessage(body)).toEqual({ status: 'success', message: CONTACT_SENT_FALLBACK });
    expect(CONTACT_SENT_FALLBACK).toBe('Message sent successfully!');
  });

  it('shows the server error message and its field errors', async () => {
    respond(400, {
      code: 'validation',
      message: 'Please check the highlighted fields.',
      fields: [{ field: 'email', message: 'Please enter a valid email address.' }],
    });
    expect(await sendContactMessage(body)).toEqual({
      status: 'error',
      message: 'Please check the highlighted fields.',
      fields: [{ field: 'email', message: 'Please enter a valid email address.' }],
    });
  });

  it('uses the unknown-error text for an error body without a message', async () => {
    respond(500, { code: 'internal', message: '' });
    expect(await sendContactMessage(body)).toEqual({ status: 'error', message: CONTACT_UNKNOWN_ERROR, fields: [] });
  });

  it('reports a generic failure for non-JSON errors and network failures', async () => {
    respond(502, '<html>Bad gateway</html>');
    expect(await sendContactMessage(body)).toEqual({ status: 'error', message: CONTACT_FAILED, fields: [] });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await sendContactMessage(body)).toEqual({ status: 'error', message: CONTACT_FAILED, fields: [] });
    expect(CONTACT_FAILED).toBe('Failed to send message. Please try again.');
  });
});
