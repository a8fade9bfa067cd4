import { useEffect, useId, useRef, useState } from 'react';
import { Check, Copy, Share2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { GuestLink } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDate, relativeTime } from '../../lib/dates';
import { guestLinkState, guestLinkStatusLabel, sortGuestLinks, type GuestLinkState } from '../../lib/guestLinks';
import { displayName } from '../../lib/names';
import { useNow } from '../../lib/useNow';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { Button } from '../ui/Button';
import { inputClasses } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { Skeleton } from '../ui/Skeleton';

// The parts of a guest link's life that the project's Share dialog and a
// report's have in common: the new URL shown once, and the list of links
// made, with their state and Revoke.

/** What a link shows, in the row's bold line ("All photos · No downloads"); null for none. */
export type DescribeLink = (link: GuestLink, myId: string | undefined) => string | null;

/** The new link, shown this once (only its hash is stored), with Copy and the phone's share sheet. */
export function CreatedLink({
  link,
  url,
  onAnother,
  share,
  summary,
}: {
  link: GuestLink;
  url: string;
  onAnother: () => void;
  /** What the phone's share sheet sends with the URL. */
  share: { title: string; text: string };
  /** A line under the notice saying what the link shows and until when. */
  summary: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [copied, setCopied] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), 2500);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast.success('Link copied');
    } catch {
      // No clipboard (permissions, an old browser): leave it selected to copy by hand.
      input.current?.select();
      toast.info('Select the link and copy it');
    }
  };
  const shareSheet = async () => {
    try {
      await navigator.share({ ...share, url });
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError')) void copy();
    }
  };

  return (
    <div className="space-y-4" data-testid="guest-link-created" data-link-id={link.id}>
      <div className="flex items-center gap-2 text-sm font-medium text-green-800 dark:text-green-300">
        <span className="flex size-6 items-center justify-center rounded-full bg-green-100 dark:bg-green-500/15">
          <Check className="size-4" aria-hidden="true" />
        </span>
        Link created
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={inputId} className="sr-only">
          Link to share
        </label>
        <input
          ref={input}
          id={inputId}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className={cn(inputClasses(false), 'min-w-0 font-mono text-xs sm:flex-1')}
        />
        <div className="flex gap-2">
          <Button variant="primary" onClick={() => void copy()} className="flex-1 sm:flex-none">
            {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
          {canShare && (
            <Button variant="outline" onClick={() => void shareSheet()} className="flex-1 sm:flex-none">
              <Share2 className="size-4" aria-hidden="true" />
              Share…
            </Button>
          )}
        </div>
      </div>
      <Notice>
        <strong className="font-semibold">Copy it now: this link won't be shown again.</strong> For your security Sitecast keeps only a
        fingerprint of it. If it is lost, revoke it and create a new one.
      </Notice>
      <p className="text-xs text-slate-600 dark:text-slate-400">{summary}</p>
      <Button variant="ghost" size="sm" onClick={onAnother} className="-ml-3">
        Create another link
      </Button>
    </div>
  );
}

const STATE_TONES: Record<GuestLinkState, string> = {
  active: 'bg-green-100 text-green-800 ring-green-600/20 dark:bg-green-400/10 dark:text-green-300 dark:ring-green-400/20',
  expired: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-400/10 dark:text-slate-300 dark:ring-slate-400/20',
  revoked: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-400/10 dark:text-red-300 dark:ring-red-400/20',
};

function LinkRow({ link, now, describe, onRevoked }: { link: GuestLink; now: number; describe?: DescribeLink; onRevoked: () => void }) {
  const me = useAppStore((s) => s.user?.id);
  const [confirming, setConfirming] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const state = guestLinkState(link, now);
  const byOther = link.createdBy && link.createdBy.id !== me ? displayName(link.createdBy) : null;
  const what = describe?.(link, me);

  const revoke = async () => {
    setRevoking(true);
    try {
      await commands.revokeGuestLink(link.id);
      toast.success('Link revoked', { description: 'Anyone using it has lost access.' });
      setConfirming(false);
      onRevoked();
    } catch (err) {
      toastRequestError(err, 'Failed to revoke link');
    } finally {
      setRevoking(false);
    }
  };

  return (
    <li className="py-3.5 first:pt-0 last:pb-0" data-testid="guest-link" data-link-id={link.id} data-state={state}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', STATE_TONES[state])} data-testid="guest-link-status">
            {guestLinkStatusLabel(link, now)}
          </span>
          {what && <p className="text-sm font-medium text-slate-900 dark:text-white">{what}</p>}
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Created {formatDate(link.createdAt)}
            {byOther && ` by ${byOther}`} · {link.lastOpenedAt === null ? 'Never opened' : `Last opened ${relativeTime(link.lastOpenedAt, now)}`}
          </p>
        </div>
        {state === 'active' && !confirming && (
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)} className="shrink-0 text-red-700 hover:bg-red-50 hover:text-red-800 dark:text-red-400 dark:hover:bg-red-500/10">
            Revoke
          </Button>
        )}
      </div>
      {confirming && (
        <div role="group" aria-label="Revoke this link?" className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 dark:border-red-900 dark:bg-red-950/40">
          <p className="text-sm font-medium text-red-900 dark:text-red-200">Revoke this link?</p>
          <p className="mt-0.5 text-xs text-red-800 dark:text-red-300">Anyone using it loses access at once, open pages included. This cannot be undone.</p>
          <div className="mt-3 flex justify-end gap-2">
            <Button variant="outline" size="sm" onClick={() => setConfirming(false)} disabled={revoking}>
              Cancel
            </Button>
            <Button variant="destructive" size="sm" onClick={() => void revoke()} loading={revoking} disabled={revoking}>
              Revoke link
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}

/** The links made (active first), each with its state, when it was last opened, and Revoke. */
export function LinkList({
  links,
  error,
  onRetry,
  onChanged,
  heading,
  describe,
  note,
}: {
  /** Null while loading. */
  links: GuestLink[] | null;
  error: boolean;
  onRetry: () => void;
  onChanged: () => void;
  heading: string;
  describe?: DescribeLink;
  /** A line under the list (e.g. where other links are listed). */
  note?: string | null;
}) {
  const now = useNow();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="border-t border-slate-100 pt-5 dark:border-slate-800">
      <h3 id={headingId} className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">
        {heading}
      </h3>
      {error ? (
        <div className="space-y-2">
          <Notice tone="error">Failed to load links</Notice>
          <Button variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : links === null ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading links…</span>
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : links.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No links yet. A link you create shows up here, to see when it was opened or to revoke it.</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label={heading}>
          {sortGuestLinks(links, now).map((link) => (
            <LinkRow key={link.id} link={link} now={now} describe={describe} onRevoked={onChanged} />
          ))}
        </ul>
      )}
      {note && !error && links !== null && <p className="mt-4 text-xs text-slate-500 dark:text-slate-400" data-testid="guest-links-note">{note}</p>}
    </section>
  );
}
