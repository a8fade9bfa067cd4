import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Leaves a full-screen view for where it was opened from: back in this tab's history
 * when the view was reached inside the app, else (a shared link opened cold) to
 * `fallback`.
 */
export function useCloseTo(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    // react-router keeps the history index in history.state; 0 means this tab started here.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
