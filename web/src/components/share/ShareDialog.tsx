import { useId, useState } from 'react';
import { Link2, ShieldCheck } from 'lucide-react';
import type { GuestLink, GuestPhotos, Project } from '../../protocol/types';
import { cn } from '../../lib/cn';
import {
  createGuestLinkRequest,
  DEFAULT_LINK_FORM,
  EXPIRY_OPTIONS,
  guestLinkDownloadsLabel,
  guestLinkPhotosLabel,
  guestLinkState,
  guestLinkStatusLabel,
  type GuestLinkExpiry,
} from '../../lib/guestLinks';
import { isReportLink, projectLinks, reportLinksNote } from '../../lib/reportSharing';
import { useNow } from '../../lib/useNow';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { Button } from '../ui/Button';
import { ChoiceCard, ChoiceLegend, SegmentedControl } from '../ui/Choices';
import { Dialog } from '../ui/Dialog';
import { CreatedLink, LinkList, type DescribeLink } from './GuestLinks';
import { useCreateLink, useGuestLinks } from './useGuestLinks';

/** A project link's bold line: which photos, and whether they download. */
const describeProjectLink: DescribeLink = (link, me) => `${guestLinkPhotosLabel(link, me)} · ${guestLinkDownloadsLabel(link.downloads)}`;

function CreateLinkForm({ project, onCreated }: { project: Project; onCreated: (link: GuestLink, url: string) => void }) {
  const [photos, setPhotos] = useState<GuestPhotos>(DEFAULT_LINK_FORM.photos);
  const [expiry, setExpiry] = useState<GuestLinkExpiry>(DEFAULT_LINK_FORM.expiry);
  const [downloads, setDownloads] = useState(DEFAULT_LINK_FORM.downloads);
  const { saving, create } = useCreateLink(
    () => commands.createGuestLink(createGuestLinkRequest({ projectId: project.id, photos, expiry, downloads })),
    onCreated,
  );
  const ids = useId();

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

/**
 * Share on the project page (its homeowner, its builder, admins): create a read-only
 * guest link, see its URL once, and list and revoke the links made.
 */
export function ShareDialog({ project, open, onOpenChange }: { project: Project; open: boolean; onOpenChange: (open: boolean) => void }) {
  const isAdmin = useAppStore((s) => s.user?.role === 'admin');
  const me = useAppStore((s) => s.user?.id);
  const now = useNow();
  const { created, clearCreated, links, failed, reload, onCreated } = useGuestLinks(project.id, open);

  // Links to a single report are listed with that report. They still count
  // towards the project's cap of active links, so the list says where they are.
  const shown = links ? projectLinks(links) : null;
  const activeReportLinks = links ? links.filter((l) => isReportLink(l) && guestLinkState(l, now) === 'active').length : 0;

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
          <CreatedLink
            link={created.link}
            url={created.url}
            onAnother={clearCreated}
            share={{ title: project.title, text: `Follow the building of ${project.title} on Sitecast` }}
            summary={`${describeProjectLink(created.link, me)} · ${guestLinkStatusLabel(created.link, now).replace(/^Active · /, '')}`}
          />
        ) : (
          <CreateLinkForm project={project} onCreated={onCreated} />
        )}
        <LinkList
          links={shown}
          error={failed}
          onRetry={reload}
          onChanged={reload}
          heading={isAdmin ? 'Links to this project' : 'Your links'}
          describe={describeProjectLink}
          note={reportLinksNote(activeReportLinks)}
        />
      </div>
    </Dialog>
  );
}
