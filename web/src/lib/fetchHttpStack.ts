/**
 * tus-js-client's HTTP stack over fetch, for the service worker
 * (docs/FEATURES.md, "On the phone"), which has no XMLHttpRequest for the default stack.
 * fetch reports no upload progress: tus learns how far each chunk went from the server's
 * Upload-Offset, as it does anyway.
 */
import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

class FetchResponse implements HttpResponse {
  constructor(
    private readonly response: Response,
    private readonly body: string,
  ) {}
  getStatus(): number {
    return this.response.status;
  }
  getHeader(header: string): string | undefined {
    return this.response.headers.get(header) ?? undefined;
  }
  getBody(): string {
    return this.body;
  }
  getUnderlyingObject(): Response {
    return this.response;
  }
}

class FetchRequest implements HttpRequest {
  private readonly headers: Record<string, string> = {};
  private readonly controller = new AbortController();

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly fetcher: typeof fetch,
  ) {}

  getMethod(): string {
    return this.method;
  }
  getURL(): string {
    return this.url;
  }
  setHeader(header: string, value: string): void {
    this.headers[header] = value;
  }
  getHeader(header: string): string | undefined {
    return this.headers[header];
  }
  setProgressHandler(): void {
    // fetch has no upload progress events.
  }
  async send(body: Blob | null = null): Promise<HttpResponse> {
    const response = await this.fetcher(this.url, {
      method: this.method,
      headers: this.headers,
      body: body ?? undefined,
      signal: this.controller.signal,
      credentials: 'same-origin',
    });
    return new FetchResponse(response, await response.text());
  }
  abort(): Promise<void> {
    this.controller.abort();
    return Promise.resolve();
  }
  getUnderlyingObject(): AbortController {
    return this.controller;
  }
}

export class FetchHttpStack implements HttpStack {
  constructor(private readonly fetcher: typeof fetch = (...args) => fetch(...args)) {}
  createRequest(method: string, url: string): HttpRequest {
    return new FetchRequest(method, url, this.fetcher);
  }
  getName(): string {
    return 'FetchHttpStack';
  }
}
