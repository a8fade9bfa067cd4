import { useEffect, useRef, useState } from 'react';
import type { ReportOptions } from '../../protocol/types';
import type { ReportPreviewData } from '../../lib/reports';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';

/** Choices settle for this long before the preview is asked for again (typing a date, ticking boxes). */
export const PREVIEW_DELAY_MS = 400;

export interface ReportPreviewState {
  /**
   * The latest preview that arrived (its first pages' content, and the whole report's
   * photo and page counts, as the server counts them); kept while the next one is on
   * its way.
   */
  preview: ReportPreviewData | null;
  loading: boolean;
  /** Why the latest request gave no preview, in the server's words when it said why. */
  problem: string | null;
  /** The server's messages for the request's fields ("No photos match these choices."). */
  fieldErrors: Record<string, string>;
}

/**
 * What a report with `options` would show, asked for (`preview_report`) whenever the
 * options change and have settled. A reply to options since changed is dropped, so a
 * slow answer never replaces a newer one. `blocked` (the form's own problem) holds the
 * request back: the server would only refuse it.
 */
export function useReportPreview(projectId: string, options: ReportOptions, blocked: boolean): ReportPreviewState {
  const key = JSON.stringify(options);
  const [state, setState] = useState<ReportPreviewState>({ preview: null, loading: !blocked, problem: null, fieldErrors: {} });
  const latest = useRef(0);
  const asked = useRef(false);

  useEffect(() => {
    latest.current += 1;
    const request = latest.current;
    if (blocked) {
      setState((s) => (s.loading || s.problem || Object.keys(s.fieldErrors).length > 0 ? { ...s, loading: false, problem: null, fieldErrors: {} } : s));
      return undefined;
    }
    setState((s) => (s.loading ? s : { ...s, loading: true }));
    // The first preview is asked for at once: the dialog has just opened.
    const delay = asked.current ? PREVIEW_DELAY_MS : 0;
    const timer = window.setTimeout(() => {
      asked.current = true;
      const sent = JSON.parse(key) as ReportOptions;
      commands.previewReport(projectId, sent).then(
        ({ content, photos, pages }) => {
          // The pairs asked for: the content holds the first two only.
          const preview = { content, photos, pages, pairs: sent.pairs.length };
          if (latest.current === request) setState({ preview, loading: false, problem: null, fieldErrors: {} });
        },
        (err: unknown) => {
          if (latest.current !== request) return;
          const fromServer = err instanceof RequestError && err.fromServer;
          setState((s) => ({
            ...s,
            loading: false,
            problem: fromServer ? err.message : 'The preview could not be loaded. It will try again when you change a choice.',
            fieldErrors: err instanceof RequestError ? Object.fromEntries(err.fields.map((f) => [f.field, f.message])) : {},
          }));
        },
      );
    }, delay);
    return () => window.clearTimeout(timer);
  }, [projectId, key, blocked]);

  return state;
}
