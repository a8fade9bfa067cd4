import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useParams, useSearchParams } from 'react-router';
import { CalendarDays, Download, Eye, MapPin, PenLine, RefreshCw, WifiOff } from 'lucide-react';
import { toast } from '../lib/toast';
import type { GuestAccess, Project, ProjectImage } from '../protocol/types';
import { isDeadLink, openGuestLink } from '../api/guest';
import { photosZipPath } from '../api/photos';
import { ApiRequestError } from '../api/http';
import { formatDate } from '../lib/dates';
import { guestCompareBase } from '../lib/comparePaths';
import { expiresIn, sharedByLabel } from '../lib/guestLinks';
import { newestFirst } from '../lib/photoFilters';
import type { SearchItem } from '../lib/searchLinks';
import { useCloseTo } from '../lib/useCloseTo';
import { useGuestStore } from '../store/guest';
import { guestCommands } from '../sync/guestCommands';
import { GuestSocket } from '../sync/GuestSocket';
import { Logo } from '../components/Logo';
import { ProgressBar } from '../components/ProgressBar';
import { SectionCard } from '../components/SectionCard';
import { StatusBadge } from '../components/StatusBadge';
import { CompareScreen } from '../components/compare/CompareScreen';
import { CompareButton, LightboxCompareButton, useComparePicker } from '../components/compare/useComparePicker';
import { OlderPhotosStatus } from '../components/photos/OlderPhotosStatus';
import { PhotoGallery } from '../components/photos/PhotoGallery';
import { lazyPart, usePreloadWhenIdle } from '../components/lazyPart';
import { SearchCombobox } from '../components/search/SearchCombobox';
import { guestMarkupSource } from '../components/markup/guestMarkupSource';
import { SharedReportView } from '../components/reports/SharedReportView';
import { MilestoneList } from '../components/story/MilestoneList';
import { TimelineFeed } from '../components/story/TimelineFeed';
import { Button, buttonClasses } from '../components/ui/Button';
import { Skeleton } from '../components/ui/Skeleton';
import { LinkInactivePage } from './LinkInactivePage';

// The viewer and its markup come when a photo first opens, or once the page is idle.
const PhotoLightbox = lazyPart(() => import('../components/photos/PhotoLightbox').then((m) => m.PhotoLightbox), {
  what: 'The photo viewer',
  overlay: { isOpen: (p) => p.index !== null, close: (p) => p.onClose() },
});

const NO_FAVOURITES: Readonly<Record<string, true>> = Object.freeze({});
const nothing = () => undefined;
/** Guests see markup and never draw. */
const GUEST_MARKUP = { source: guestMarkupSource, access: 'none' as const };

/** The guest's photos, newest first (SPEC §2: photos are sorted newest first). */
function useGuestPhotos(): ProjectImage[] {
  const byId = useGuestStore((s) => s.photos);
  return useMemo(() => newestFirst(Object.values(byId)), [byId]);
}

function GuestHeader({ access }: { access: GuestAccess | null }) {
  const connection = useGuestStore((s) => s.connection);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75 dark:border-slate-800 dark:bg-slate-950/85">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo to="/home" />
        {access && (
          <p className="hidden min-w-0 items-center gap-2 truncate text-sm text-slate-600 md:flex dark:text-slate-300" data-testid="guest-shared-by">
            <Eye className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
            <span className="truncate">{sharedByLabel(access)}</span>
          </p>
        )}
        <Link to="/login" className={buttonClasses('outline', 'sm')}>
          Sign in
        </Link>
      </div>
      {access && (
        <div className="border-t border-slate-100 bg-amber-50/70 md:hidden dark:border-slate-800 dark:bg-amber-400/5">
          <p className="mx-auto flex max-w-7xl items-center gap-2 px-4 py-2 text-sm text-amber-950 dark:text-amber-100">
            <Eye className="size-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{sharedByLabel(access)}</span>
          </p>
        </div>
      )}
      {connection === 'reconnecting' && (
        <div role="status" data-testid="reconnecting" className="border-t border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-400/20 dark:bg-amber-400/10 dark:text-amber-200">
          <div className="mx-auto flex max-w-7xl items-center gap-2.5 px-4 py-2 text-sm sm:px-6 lg:px-8">
            <WifiOff className="size-4 shrink-0" aria-hidden="true" />
            <span className="font-medium">Reconnecting…</span>
            <span className="hidden sm:inline">Live updates are paused; this page catches up by itself.</span>
          </div>
        </div>
      )}
    </header>
  );
}

function GuestFooter({ access }: { access: GuestAccess | null }) {
  const [now] = useState(() => Date.now());
  return (
    <footer className="border-t border-slate-200 dark:border-slate-800">
      <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-6 text-xs text-slate-500 sm:flex-row sm:justify-between sm:px-6 lg:px-8 dark:text-slate-400">
        <p>Shared with Sitecast — construction progress, photo by photo.</p>
        {access && (
          <p data-testid="guest-link-expiry">
            {access.expiresAt === null ? 'This link does not expire.' : `This link expires ${expiresIn(access.expiresAt, now)}.`}
          </p>
        )}
      </div>
    </footer>
  );
}

/** The page frame for a guest: Sitecast's header, a footer, nothing of the signed-in app. */
function GuestFrame({ access, children }: { access: GuestAccess | null; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <GuestHeader access={access} />
      <main className="mx-auto w-full max-w-7xl flex-1 space-y-6 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">{children}</main>
      <GuestFooter access={access} />
    </div>
  );
}

function GuestSkeleton() {
  return (
    <GuestFrame access={null}>
      <div role="status" className="space-y-6">
        <span className="sr-only">Opening the shared project…</span>
        <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
          <Skeleton className="h-5 w-24 rounded-full" />
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-2 w-full" />
        </div>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="aspect-[4/3] rounded-xl" />
          ))}
        </div>
      </div>
    </GuestFrame>
  );
}

/** Opening failed for a reason other than a dead link (offline, server busy): say so and offer a retry. */
function GuestOpenFailed({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <GuestFrame access={null}>
      <div className="flex flex-col items-center py-16 text-center">
        <span className="flex size-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <WifiOff className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-semibold text-slate-900 dark:text-white">We couldn't open this link</h1>
        <p className="mt-2 max-w-md text-sm text-slate-600 dark:text-slate-300">
          {message ?? 'Sitecast could not be reached. Check your connection and try again.'}
        </p>
        <Button className="mt-6" onClick={onRetry}>
          <RefreshCw className="size-4" aria-hidden="true" />
          Try again
        </Button>
      </div>
    </GuestFrame>
  );
}

function GuestOutdated() {
  return (
    <GuestFrame access={null}>
      <div className="flex flex-col items-center py-16 text-center">
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-white">Sitecast has been updated</h1>
        <p className="mt-2 max-w-md text-sm text-slate-600 dark:text-slate-300">Reload the page to see the latest version of this project.</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <RefreshCw className="size-4" aria-hidden="true" />
          Reload
        </Button>
      </div>
    </GuestFrame>
  );
}

/**
 * `/guest/:token/*`: opens the link (which sets the guest's cookie), keeps the guest
 * socket open under every guest page, and swaps the page for the inactive one as soon
 * as the link stops working. Public: it needs no sign-in and works beside one.
 */
export function GuestLayout() {
  const { token = '' } = useParams();
  const phase = useGuestStore((s) => s.phase);
  const heldToken = useGuestStore((s) => s.token);
  const failure = useGuestStore((s) => s.failure);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    useGuestStore.getState().guestReset(token);
    openGuestLink(token)
      .then((access) => {
        if (active) useGuestStore.getState().guestOpened(access);
      })
      .catch((err: unknown) => {
        if (!active) return;
        if (isDeadLink(err)) useGuestStore.getState().guestOpenFailed('inactive');
        else useGuestStore.getState().guestOpenFailed('failed', err instanceof ApiRequestError ? err.message : undefined);
      });
    return () => {
      active = false;
    };
  }, [token, attempt]);

  if (heldToken !== token) return <GuestSkeleton />;
  if (phase === 'inactive') return <LinkInactivePage />;
  if (phase === 'failed') return <GuestOpenFailed message={failure} onRetry={() => setAttempt((n) => n + 1)} />;
  if (phase === 'outdated') return <GuestOutdated />;
  return (
    <>
      {(phase === 'connecting' || phase === 'live') && <GuestSocket token={token} />}
      {phase === 'live' ? <Outlet /> : <GuestSkeleton />}
    </>
  );
}

function ProjectHero({ project }: { project: Project }) {
  return (
    <section aria-labelledby="guest-project-title" data-testid="project-header" className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="h-1.5 bg-gradient-to-r from-amber-400 via-amber-500 to-orange-500" aria-hidden="true" />
      <div className="space-y-5 p-5 sm:p-6 lg:p-8">
        <div className="min-w-0 space-y-3">
          <StatusBadge status={project.status} />
          <h1 id="guest-project-title" className="text-2xl font-semibold tracking-tight text-balance text-slate-900 sm:text-3xl dark:text-white">
            {project.title}
          </h1>
          <div className="flex flex-col gap-2 text-sm text-slate-600 sm:flex-row sm:flex-wrap sm:gap-x-5 dark:text-slate-300">
            <span className="inline-flex items-start gap-1.5">
              <MapPin className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
              {project.address}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <CalendarDays className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
              Last updated {formatDate(project.updatedAt)}
            </span>
          </div>
          {project.description && <p className="max-w-3xl text-sm leading-6 text-slate-600 dark:text-slate-300">{project.description}</p>}
        </div>
        <div className="max-w-3xl">
          <ProgressBar value={project.progress} status={project.status} label="Project Progress" />
        </div>
      </div>
    </section>
  );
}

/**
 * Find a photo of the link by caption, tag or milestone. The server narrows a
 * guest's search to the link's project and to photos; a guest's search is not watched,
 * so photo events (a new tag, a caption) run an open search again.
 */
function GuestSearch({ onOpen }: { onOpen: (id: string) => void }) {
  const photoChanges = useGuestStore((s) => s.photoChanges);
  const epoch = useGuestStore((s) => s.epoch);
  const run = useCallback((query: string) => guestCommands.search(query), []);
  const pick = useCallback(
    (item: SearchItem) => {
      if (item.kind === 'photo') onOpen(item.hit.photo.id);
    },
    [onOpen],
  );
  return (
    <SearchCombobox
      variant="popover"
      label="Search this project's photos"
      placeholder="Search photos by caption or tag…"
      run={run}
      refresh={`${epoch}:${photoChanges}`}
      onPick={pick}
      className="mb-4 w-full sm:max-w-sm"
      popoverClassName="left-0 w-full sm:w-[min(32rem,calc(100vw-3rem))]"
    />
  );
}

/** The link's photos, view only: the lightbox (with Download only when the link allows), Compare, and the zip. */
/** The photo of `id` among `photos`, by a map built once per list. */
const photoMaps = new WeakMap<ProjectImage[], Map<string, ProjectImage>>();
function byIdOf(photos: ProjectImage[], id: string): ProjectImage | undefined {
  let map = photoMaps.get(photos);
  if (!map) {
    map = new Map(photos.map((p) => [p.id, p]));
    photoMaps.set(photos, map);
  }
  return map.get(id);
}

/** The older pages of a big project arriving (docs/FEATURES.md, "Big projects"), or Retry when they could not. */
function GuestPagingStatus({ held }: { held: number }) {
  const paging = useGuestStore((s) => s.photoPaging);
  return (
    <OlderPhotosStatus
      className="mt-4"
      held={held}
      total={paging.total}
      loading={paging.loading}
      failed={paging.failed}
      onRetry={() => guestCommands.loadPhotos()}
    />
  );
}

function GuestGallery({ access, token }: { access: GuestAccess; token: string }) {
  const photos = useGuestPhotos();
  const [now] = useState(() => new Date());
  const { openPicker, picker } = useComparePicker(photos, guestCompareBase(token));
  usePreloadWhenIdle([PhotoLightbox]);

  // Photos there when the page opened show at once; later arrivals animate in. Older
  // pages read in the background are not arrivals: only photos uploaded since are.
  const seenAtLoad = useRef<{ ids: Set<string>; newest: number } | null>(null);
  if (seenAtLoad.current === null) {
    seenAtLoad.current = { ids: new Set(photos.map((p) => p.id)), newest: Math.max(0, ...photos.map((p) => p.createdAt)) };
  }
  const isEntering = (id: string) => {
    const seen = seenAtLoad.current;
    if (!seen || seen.ids.has(id)) return false;
    const photo = byIdOf(photos, id);
    return photo !== undefined && photo.createdAt > seen.newest;
  };
  const paging = useGuestStore((s) => s.photoPaging);

  // `?photo={id}` is the lightbox on that photo, as on the signed-in page: Compare and
  // back returns to it.
  const [params, setParams] = useSearchParams();
  const shown = params.get('photo');
  const index = shown ? photos.findIndex((p) => p.id === shown) : -1;
  const showInUrl = (id: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('photo', id);
        else next.delete('photo');
        return next;
      },
      { replace: true },
    );

  const galleryRef = useRef<HTMLDivElement>(null);
  const lastShown = useRef<string | null>(null);
  if (shown) lastShown.current = shown;
  const returnFocus = (event: Event) => {
    const id = lastShown.current;
    const tile = id ? galleryRef.current?.querySelector<HTMLElement>(`[data-photo-id="${CSS.escape(id)}"] [data-opens-lightbox]`) : null;
    if (!tile) return;
    event.preventDefault();
    tile.focus();
  };

  const total = paging.loading || paging.failed ? Math.max(paging.total, photos.length) : photos.length;
  const count = total === 1 ? '1 photo' : `${total.toLocaleString('en-US')} photos`;
  const chooser = access.sharedBy?.trim() || 'the person who shared this';
  const subtitle = access.photos === 'favourites' ? (photos.length === 0 ? `Picked by ${chooser}` : `${count} picked by ${chooser}`) : count;

  return (
    <SectionCard
      title="Photos"
      subtitle={subtitle}
      className="lg:col-span-2"
      actions={
        <>
          <CompareButton count={photos.length} onClick={() => openPicker()} />
          {access.downloads && photos.length > 0 && (
            <a href={photosZipPath(access.projectId)} download className={buttonClasses('outline', 'sm')}>
              <Download className="size-4" aria-hidden="true" />
              Download all
            </a>
          )}
          {access.downloads && photos.some((p) => p.markupCount > 0) && (
            <a href={photosZipPath(access.projectId, false, true)} download className={buttonClasses('outline', 'sm')}>
              <PenLine className="size-4" aria-hidden="true" />
              With markup
            </a>
          )}
        </>
      }
    >
      {photos.length > 0 && (
        <GuestSearch
          onOpen={(id) => {
            if (photos.some((p) => p.id === id)) showInUrl(id);
            else toast.info('That photo is not part of this shared link.');
          }}
        />
      )}
      <div ref={galleryRef}>
        <PhotoGallery
          photos={photos}
          favourites={NO_FAVOURITES}
          now={now}
          click="open"
          canEdit={false}
          canDelete={false}
          viewOnly
          isEntering={isEntering}
          onOpen={(photo) => showInUrl(photo.id)}
          onToggleFavourite={nothing}
          onEdit={nothing}
          onDelete={nothing}
          emptyHint={
            access.photos === 'favourites'
              ? 'No photos have been picked for this link yet. New picks show up here by themselves.'
              : 'Photos usually arrive within 24–48 hours of a site visit. New ones show up here by themselves.'
          }
        />
      </div>
      <GuestPagingStatus held={photos.length} />
      <PhotoLightbox
        photos={photos}
        index={index >= 0 ? index : null}
        onIndexChange={(i) => showInUrl(photos[i]?.id ?? null)}
        onClose={() => showInUrl(null)}
        onCloseAutoFocus={returnFocus}
        canDownload={access.downloads}
        markup={GUEST_MARKUP}
        actions={(photo, buttonClass) =>
          photos.length > 1 ? <LightboxCompareButton className={buttonClass} onClick={() => openPicker([photo.id])} /> : null
        }
      />
      {picker}
    </SectionCard>
  );
}

function GuestTimeline({ onOpenPhoto }: { onOpenPhoto: (id: string) => void }) {
  const timeline = useGuestStore((s) => s.timeline);
  const epoch = useGuestStore((s) => s.epoch);
  // Each connection reads the newest page again: what changed while away is in it.
  useEffect(() => {
    if (epoch > 0) void guestCommands.loadTimeline(false);
  }, [epoch]);
  return (
    <SectionCard title="Timeline" subtitle="What happened, newest first" className="lg:col-span-2">
      <TimelineFeed
        entries={timeline.entries}
        hasMore={!timeline.loaded || timeline.next !== null}
        loading={timeline.loading}
        error={timeline.error}
        onLoadMore={() => void guestCommands.loadTimeline(timeline.loaded)}
        onOpenPhoto={onOpenPhoto}
      />
    </SectionCard>
  );
}

/**
 * `/guest/:token`: the shared project, live and view only — or, for a report link,
 * that one report and its PDF, and nothing else of the project (the
 * server sends such a guest no photos, milestones or timeline, and answers no request).
 */
export function GuestProjectPage() {
  const { token = '' } = useParams();
  const project = useGuestStore((s) => s.project);
  const access = useGuestStore((s) => s.access);
  const plan = useGuestStore((s) => s.plan);
  const photos = useGuestStore((s) => s.photos);
  const report = useGuestStore((s) => s.report);
  const [, setParams] = useSearchParams();

  const title = report ? `${report.content?.project.title ?? project?.title ?? ''} · Progress report` : project?.title;
  useEffect(() => {
    if (!title) return undefined;
    document.title = `${title} · Sitecast`;
    return () => {
      document.title = 'Sitecast';
    };
  }, [title]);

  if (!project || !access) return null;
  if (report) {
    return (
      <GuestFrame access={access}>
        <SharedReportView report={report} project={project} />
      </GuestFrame>
    );
  }

  const openPhoto = (id: string) => {
    if (!photos[id]) {
      toast.info('That photo is not part of this shared link.');
      return;
    }
    // As a tile does: the lightbox's photo replaces the address, adding no history step.
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('photo', id);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <GuestFrame access={access}>
      <ProjectHero project={project} />
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <GuestGallery access={access} token={token} />
        <SectionCard title="Milestones" className="lg:col-start-3 lg:row-span-2 lg:row-start-1">
          {plan ? <MilestoneList plan={plan} /> : <p className="text-sm text-slate-500 dark:text-slate-400">No milestones yet.</p>}
        </SectionCard>
        <GuestTimeline onOpenPhoto={openPhoto} />
      </div>
    </GuestFrame>
  );
}

/** `/guest/:token/compare?a=&b=`: before/after among the link's photos. */
export function GuestComparePage() {
  const { token = '' } = useParams();
  const photos = useGuestPhotos();
  const title = useGuestStore((s) => s.project?.title ?? '');
  const isReport = useGuestStore((s) => s.report !== null);
  const close = useCloseTo(guestCompareBase(token));
  // A report link shows its report only: there are no photos to compare.
  if (isReport) return <Navigate to={guestCompareBase(token)} replace />;
  return (
    <CompareScreen
      photos={photos}
      loaded
      projectTitle={title}
      basePath={guestCompareBase(token)}
      onClose={close}
      linkNote="It opens with this shared link: anyone who has it can see the project."
      markupSource={guestMarkupSource}
    />
  );
}
