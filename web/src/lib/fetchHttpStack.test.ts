import { describe, expect, it } from 'vitest';
import { FetchHttpStack } from './fetchHttpStack';

describe('tus over fetch', () => {
  it('sends the method, headers and body tus gives, and reads the answer back', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const stack = new FetchHttpStack(async (url, init) => {
      seen.push({ url: String(url), init: init ?? {} });
      return new Response(null, { status: 204, headers: { 'Upload-Offset': '5', 'Tus-Resumable': '1.0.0' } });
    });
    const req = stack.createRequest('PATCH', '/api/uploads/abc');
    req.setHeader('Upload-Offset', '0');
    req.setHeader('Content-Type', 'application/offset+octet-stream');
    expect(req.getHeader('Upload-Offset')).toBe('0');
    const res = await req.send(new Blob(['hello']));
    expect(seen[0]?.url).toBe('/api/uploads/abc');
    expect(seen[0]?.init).toMatchObject({ method: 'PATCH', credentials: 'same-origin', headers: { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' } });
    expect(seen[0]?.init.body).toBeInstanceOf(Blob);
    expect(res.getStatus()).toBe(204);
    expect(res.getHeader('Upload-Offset')).toBe('5');
    expect(res.getHeader('Sitecast-Refused')).toBeUndefined();
  });

  it('sends no body when tus gives none, and gives the error body back', async () => {
    const stack = new FetchHttpStack(async (_url, init) => {
      expect(init?.body).toBeUndefined();
      return new Response('{"code":"forbidden","message":"No longer allowed"}', { status: 403 });
    });
    const res = await stack.createRequest('POST', '/api/uploads').send(null);
    expect(res.getStatus()).toBe(403);
    expect(JSON.parse(res.getBody())).toMatchObject({ message: 'No longer allowed' });
  });

  it('aborts the request in flight', async () => {
    const stack = new FetchHttpStack(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const req = stack.createRequest('HEAD', '/api/uploads/abc');
    const sent = req.send(null);
    await req.abort();
    await expect(sent).rejects.toThrow('Aborted');
  });
});
