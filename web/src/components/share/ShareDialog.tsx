import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Check, Copy, Link2, Share2, ShieldCheck } from 'lucide-react';
import { toast } from 'sonner';
import type { GuestLink, GuestPhotos, Project } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { formatDate, relativeTime } from '../../lib/dates';
import {
  createGuestLinkRequest,
  DEFAULT_LINK_FORM,
  EXPIRY_OPTIONS,
  guestLinkDownloadsLabel,
  guestLinkPhotosLabel,
  guestLinkState,
  guestLinkStatusLabel,
  sortGuestLinks,
  type GuestLinkExpiry,
  type GuestLinkState,
} from '../../lib/guestLinks';
import { displayName } from '../../lib/names';
import { useNow } from '../../lib/useNow';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';
import { Button } from '../ui/Button';
import { ChoiceCard, ChoiceLegend, SegmentedControl } from '../ui/Choices';
import { Dialog } from '../ui/Dialog';
import { inputClasses } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { Skeleton } from '../ui/Skeleton';

function CreateLinkForm({ project, onCreated }: { project: Project; onCreated: (link: GuestLink, url: string) => void }) {
  const [photos, setPhotos] = useState<GuestPhotos>(DEFAULT_LINK_FORM.photos);
  const [expiry, setExpiry] = useState<GuestLinkExpiry>(DEFAULT_LINK_FORM.expiry);
  const [downloads, setDownloads] = useState(DEFAULT_LINK_FORM.downloads);
  const [saving, setSaving] = useState(false);
  const ids = useId();

  const create = async () => {
    setSaving(true);
    try {
      const { link, url } = await commands.createGuestLink(createGuestLinkRequest({ projectId: project.id, photos, expiry, downloads }));
      onCreated(link, url);
    } catch (err) {
      toastRequestError(err, 'Failed to create link');
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="space-y-5"
      aria-label="New link"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <fieldset disabled={saving}>
        <ChoiceLegend>Photos</ChoiceLegend>
        <div className="grid gap-2 sm:grid-cols-2">
          <ChoiceCard name={`${ids}-photos`} value="all" checked={photos === 'all'} onChange={() => setPhotos('all')} title="All photos" hint="Every photo, and new ones as they arrive." />
          <ChoiceCard
            name={`${ids}-photos`}
            value="favourites"
            checked={photos === 'favourites'}
            onChange={() => setPhotos('favourites')}
            title="Favorites only"
            hint="Only the photos you have marked as your favorites."
          />
        </div>
      </fieldset>

      <fieldset disabled={saving}>
        <ChoiceLegend>Expires</ChoiceLegend>
        <SegmentedControl name={`${ids}-expiry`} value={expiry} options={EXPIRY_OPTIONS} onChange={setExpiry} />
      </fieldset>

      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p id={`${ids}-downloads`} className="text-sm font-medium text-slate-700 dark:text-slate-200">
            Allow downloads
          </p>
          <p id={`${ids}-downloads-hint`} className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
            {downloads ? 'Guests can save the original photos, one by one or all as a zip.' : 'Guests can look at the photos but not save the originals.'}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={downloads}
          aria-labelledby={`${ids}-downloads`}
          aria-describedby={`${ids}-downloads-hint`}
          disabled={saving}
          onClick={() => setDownloads(!downloads)}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-60 dark:focus-visible:ring-offset-slate-900',
            downloads ? 'bg-amber-600' : 'bg-slate-300 dark:bg-slate-600',
          )}
        >
          <span className={cn('inline-block size-5 rounded-full bg-white shadow transition', downloads ? 'translate-x-[1.375rem]' : 'translate-x-0.5')} />
        </button>
      </div>

      <Button type="submit" variant="secondary" className="w-full" loading={saving} disabled={saving}>
        {!saving && <Link2 className="size-4" aria-hidden="true" />}
        {saving ? 'Creating link…' : 'Create link'}
      </Button>
    </form>
  );
}

/** The new link, shown this once (only its hash is stored), with Copy and the phone's share sheet. */
function CreatedLink({ project, link, url, onAnother }: { project: Project; link: GuestLink; url: string; onAnother: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const me = useAppStore((s) => s.user?.id);
  const now = useNow();
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
  const share = async () => {
    try {
      await navigator.share({ title: project.title, text: `Follow the building of ${project.title} on Sitecast`, url });
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
        <label htmlFor="guest-link-url" className="sr-only">
          Link to share
        </label>
        <input
          ref={input}
          id="guest-link-url"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className={cn(inputClasses(false), 'min-w-0 flex-1 font-mono text-xs')}
        />
        <div className="flex gap-2">
          <Button variant="primary" onClick={() => void copy()} className="flex-1 sm:flex-none">
            {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
          {canShare && (
            <Button variant="outline" onClick={() => void share()} className="flex-1 sm:flex-none">
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
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {guestLinkPhotosLabel(link, me)} · {guestLinkDownloadsLabel(link.downloads)} · {guestLinkStatusLabel(link, now).replace(/^Active · /, '')}
      </p>
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

function LinkRow({ link, now, onRevoked }: { link: GuestLink; now: number; onRevoked: () => void }) {
  const me = useAppStore((s) => s.user?.id);
  const [confirming, setConfirming] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const state = guestLinkState(link, now);
  const byOther = link.createdBy && link.createdBy.id !== me ? displayName(link.createdBy) : null;

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
          <p className="text-sm font-medium text-slate-900 dark:text-white">
            {guestLinkPhotosLabel(link, me)} · {guestLinkDownloadsLabel(link.downloads)}
          </p>
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

function LinkList({ links, error, onRetry, onChanged, heading }: { links: GuestLink[] | null; error: boolean; onRetry: () => void; onChanged: () => void; heading: string }) {
  const now = useNow();
  return (
    <section aria-labelledby="guest-links-heading" className="border-t border-slate-100 pt-5 dark:border-slate-800">
      <h3 id="guest-links-heading" className="mb-3 text-sm font-semibold text-slate-900 dark:text-white">
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
            <LinkRow key={link.id} link={link} now={now} onRevoked={onChanged} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Share on the project page (its homeowner, its builder, admins): create a read-only
 * guest link, see its URL once, and list and revoke the links made.
 */
export function ShareDialog({ project, open, onOpenChange }: { project: Project; open: boolean; onOpenChange: (open: boolean) => void }) {
  const isAdmin = useAppStore((s) => s.user?.role === 'admin');
  const [created, setCreated] = useState<{ link: GuestLink; url: string } | null>(null);
  const [links, setLinks] = useState<GuestLink[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      setLinks(await commands.listGuestLinks(project.id));
    } catch (err) {
      setFailed(true);
      toastRequestError(err, 'Failed to load links');
    }
  }, [project.id]);

  useEffect(() => {
    if (!open) return;
    // The URL is shown once: closing the dialog forgets it.
    setCreated(null);
    setLinks(null);
    void load();
  }, [open, load]);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Share this project"
      description={
        <>
          <ShieldCheck className="mr-1 inline size-4 align-[-3px] text-slate-400" aria-hidden="true" />
          A view-only link to {project.title}: no account needed, and you can turn it off at any time.
        </>
      }
      widthClass="max-w-[560px]"
    >
      <div className="space-y-6">
        {created ? (
          <CreatedLink project={project} link={created.link} url={created.url} onAnother={() => setCreated(null)} />
        ) : (
          <CreateLinkForm
            project={project}
            onCreated={(link, url) => {
              setCreated({ link, url });
              setLinks((held) => (held ? [link, ...held.filter((l) => l.id !== link.id)] : held));
              void load();
            }}
          />
        )}
        <LinkList links={links} error={failed} onRetry={() => void load()} onChanged={() => void load()} heading={isAdmin ? 'Links to this project' : 'Your links'} />
      </div>
    </Dialog>
  );
}
