import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { CheckSquare, ChevronDown, FileText, Heart, Loader2, SearchX, Tag, X } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { ProjectImage } from '../../protocol/types';
import { formatTagParam, parseTagParam, shownOf, usedTags } from '../../lib/photoFilters';
import { arrivedAfter } from '../../lib/photoCoverage';
import { TAG_PHOTOS_AT_ONCE } from '../../lib/limits';
import { GROUPINGS, groupPhotos, parseGrouping, type PhotoGrouping } from '../../lib/photoGroups';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { lazyPart, usePreloadWhenIdle } from '../lazyPart';
import { Button } from '../ui/Button';
import { Skeleton } from '../ui/Skeleton';
import { PhotoFilterBar } from './PhotoFilterBar';
import { PhotoGallery, type GalleryColumns } from './PhotoGallery';
import { useComparePicker } from '../compare/useComparePicker';
import { projectCompareBase } from '../../lib/comparePaths';
import { projectAbilities, projectStanding } from '../../lib/companyRules';
import type { TileClick } from './PhotoTile';
import { deletePhoto, toggleFavourite, useProjectPhotos, type PhotoFilters } from './usePhotos';
import { usePhotoWindow, type PhotoWindowView } from './usePhotoWindow';
import { OlderPhotosStatus, ReadFailedAlert } from './OlderPhotosStatus';

// The lightbox (with the markup editor and the comments) and the dialogs come when first
// opened, or once the page is idle: the gallery draws without them.
const ProjectLightbox = lazyPart(() => import('./ProjectLightbox').then((m) => m.ProjectLightbox), {
  what: 'The photo viewer',
  overlay: { isOpen: (p) => p.index !== null, close: (p) => p.onClose() },
});
const TagPhotosDialog = lazyPart(() => import('../tags/TagPhotosDialog').then((m) => m.TagPhotosDialog), {
  what: 'Tagging',
  overlay: { isOpen: (p) => p.open, close: (p) => p.onOpenChange(false) },
});
const EditPhotoDialog = lazyPart(() => import('./EditPhotoDialog').then((m) => m.EditPhotoDialog), {
  what: 'Editing',
  overlay: { isOpen: () => true, close: (p) => p.onClose() },
});

/** What a role may do with the photos (SPEC §6) and how its gallery looks (SPEC §2). */
export interface GalleryRole {
  click: TileClick;
  canEdit: boolean;
  canDelete: boolean;
  /** Admins pick the project's thumbnail from the lightbox (SPEC §3). */
  canPickThumbnail: boolean;
  columns: GalleryColumns;
  /** The admin's Photos tab words an empty filtered result its own way. */
  emptyText: 'admin' | 'standard';
}

/** The About page's FAQ promise (SPEC §1), so an empty project says what to expect. */
const ARRIVAL_HINT =
  'Photos usually arrive within 24–48 hours of a site visit, about every two weeks or at each milestone.';

function EmptyResult({ title, text, action }: { title?: string; text: string; action?: ReactNode }) {
  return (
    <div role="status" className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-200 px-6 py-12 text-center dark:border-slate-700">
      <SearchX className="size-8 text-slate-300 dark:text-slate-600" aria-hidden="true" />
      {title && <p className="mt-3 text-sm font-semibold text-slate-800 dark:text-slate-100">{title}</p>}
      <p className={title ? 'mt-1 text-sm text-slate-500 dark:text-slate-400' : 'mt-3 text-sm font-medium text-slate-600 dark:text-slate-300'}>{text}</p>
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

function GallerySkeleton({ columns }: { columns: GalleryColumns }) {
  return (
    <div role="status" className={columns === 'three' ? 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4' : 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4'}>
      <span className="sr-only">Loading photos…</span>
      {Array.from({ length: columns === 'three' ? 6 : 8 }, (_, i) => (
        <Skeleton key={i} className="aspect-[4/3] rounded-xl" />
      ))}
    </div>
  );
}

const NO_FAVOURITES_SHOWN: Readonly<Record<string, true>> = Object.freeze({});

/** Under the gallery while a big project's older photos arrive a page at a time. */
function PagingStatus({ projectId, held, total }: { projectId: string; held: number; total: number }) {
  const paging = useAppStore((s) => s.photos[projectId]?.paging);
  if (!paging) return null;
  return (
    <OlderPhotosStatus held={held} total={total} loading={paging.loading} failed={paging.failed} onRetry={() => commands.resumePhotos(projectId)} />
  );
}

/**
 * A month or year the background read has not reached, read directly (docs/FEATURES.md,
 * "Big projects"): in place of the gallery while none of its photos is here (so "No
 * photos" never shows for a month that has some on the server), under it while the rest
 * arrive; when a page failed after its retries, that and a way to go on.
 */
function WindowStatusLine({ view, alone }: { view: PhotoWindowView; alone: boolean }) {
  if (!view.window || view.status === 'held') return null;
  if (view.status === 'failed') return <ReadFailedAlert text={`Photos from ${view.window.label} could not be loaded.`} onRetry={view.retry} testId="photo-window-failed" />;
  const text = `Loading ${alone ? '' : 'more '}photos from ${view.window.label}…`;
  return alone ? (
    <div role="status" data-testid="photo-window-loading" className="flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-slate-200 px-6 py-12 text-center dark:border-slate-700">
      <Loader2 className="size-6 animate-spin text-slate-400" aria-hidden="true" />
      <p className="text-sm font-medium text-slate-600 dark:text-slate-300">{text}</p>
    </div>
  ) : (
    <p role="status" data-testid="photo-window-loading" className="flex items-center justify-center gap-2 text-xs text-slate-500 dark:text-slate-400">
      <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
      {text}
    </p>
  );
}

/**
 * Favorites and every year need every page (favourites arrive with their page): while
 * some are still on their way, an empty result says it is still looking, not that there
 * is nothing.
 */
function StillLooking({ favourites }: { favourites: boolean }) {
  return (
    <div role="status" data-testid="photo-still-loading" className="flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-slate-200 px-6 py-12 text-center dark:border-slate-700">
      <Loader2 className="size-6 animate-spin text-slate-400" aria-hidden="true" />
      <p className="text-sm font-medium text-slate-600 dark:text-slate-300">
        {favourites ? 'Looking for your favorites among the older photos…' : 'Looking through the older photos…'}
      </p>
    </div>
  );
}

/** None / Milestone / Site visit, kept in the URL (`?group=`) so a reload or a shared link keeps it. */
function GroupBySelect({ value, onChange }: { value: PhotoGrouping; onChange: (value: PhotoGrouping) => void }) {
  const id = useId();
  return (
    <div className="flex w-full items-center gap-2 sm:w-auto">
      <label htmlFor={id} className="text-sm font-medium whitespace-nowrap text-slate-600 dark:text-slate-300">
        Group by
      </label>
      <div className="relative flex-1 sm:flex-none">
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(parseGrouping(e.target.value))}
          data-testid="group-by"
          className="block h-9 w-full appearance-none rounded-lg border border-slate-300 bg-white pr-8 pl-3 sm:w-32 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          {GROUPINGS.map((g) => (
            <option key={g.value} value={g.value}>
              {g.label}
            </option>
          ))}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      </div>
    </div>
  );
}

/**
 * The bar over a gallery that is choosing photos — how many, all shown or
 * none, "Tag" for the selection and "Report" of it. Sticky, so it stays in
 * reach while scrolling.
 */
function SelectionBar({
  count,
  shown,
  onSelectAll,
  onClear,
  onTag,
  onReport,
  onDone,
}: {
  count: number;
  shown: number;
  onSelectAll: () => void;
  onClear: () => void;
  onTag: () => void;
  onReport?: () => void;
  onDone: () => void;
}) {
  return (
    <div
      role="toolbar"
      aria-label="Selected photos"
      data-testid="selection-bar"
      className="sticky top-[4.5rem] z-30 flex flex-wrap items-center gap-2 rounded-xl border border-amber-200 bg-amber-50/95 px-3 py-2 shadow-sm backdrop-blur dark:border-amber-400/30 dark:bg-slate-900/95"
    >
      <p className="mr-auto text-sm font-medium text-slate-900 tabular-nums dark:text-white" aria-live="polite" data-testid="selected-count">
        {count === 0 ? 'Tap photos to select them' : count === 1 ? '1 selected' : `${count} selected`}
      </p>
      {count < shown ? (
        <Button variant="ghost" size="sm" onClick={onSelectAll}>
          Select all
        </Button>
      ) : (
        <Button variant="ghost" size="sm" onClick={onClear}>
          Select none
        </Button>
      )}
      <Button variant="secondary" size="sm" onClick={onTag} disabled={count === 0}>
        <Tag className="size-4" aria-hidden="true" />
        Tag
      </Button>
      {onReport && (
        <Button variant="outline" size="sm" onClick={onReport} disabled={count === 0}>
          <FileText className="size-4" aria-hidden="true" />
          Report
        </Button>
      )}
      <Button variant="outline" size="sm" onClick={onDone}>
        <X className="size-4" aria-hidden="true" />
        Done
      </Button>
    </div>
  );
}

/**
 * The filters, the gallery with its empty states, the lightbox, and the edit and delete
 * dialogs for one project's photos; the sections around it differ per role.
 */
export function PhotoBrowser({
  projectId,
  filters,
  role,
  emptyAction,
  onReport,
}: {
  projectId: string;
  filters: PhotoFilters;
  role: GalleryRole;
  /** Offered under "No images available" (e.g. a way to upload). */
  emptyAction?: ReactNode;
  /** A progress report of the selected photos (the project page opens its dialog). */
  onReport?: () => void;
}) {
  const { photos, favourites, loaded, paging } = useProjectPhotos(projectId);
  // While older pages arrive, the project's count is what it had when opened.
  const total = paging.loading || paging.failed ? Math.max(paging.total, photos.length) : photos.length;
  const [params, setParams] = useSearchParams();
  // `?tags=Kitchen,Electrical` narrows the gallery to photos carrying all of them.
  const tagParam = params.get('tags');
  const chosenTags = useMemo(() => parseTagParam(tagParam), [tagParam]);
  const setChosenTags = (tags: string[]) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        const value = formatTagParam(tags);
        if (value) next.set('tags', value);
        else next.delete('tags');
        return next;
      },
      { replace: true },
    );
  const tagChoices = useMemo(() => usedTags(photos), [photos]);
  const photoIds = useMemo(() => new Set(photos.map((p) => p.id)), [photos]);
  // Favourites change what is shown only in Favorites mode: elsewhere a heart's tap
  // leaves the list (and a year of tiles) as it was.
  const favouritesShown = filters.favouritesOnly ? favourites : NO_FAVOURITES_SHOWN;
  const visible = useMemo(
    () => shownOf(photos, filters.date, filters.favouritesOnly, favouritesShown, chosenTags),
    [photos, filters.date, filters.favouritesOnly, favouritesShown, chosenTags],
  );
  const favouriteCount = useMemo(() => Object.keys(favourites).filter((id) => photoIds.has(id)).length, [favourites, photoIds]);
  // Big projects: a date window not read yet is read directly; Favorites and every year
  // wait for the background read (docs/FEATURES.md, "Big projects").
  const windowView = usePhotoWindow(projectId, filters.date, filters.favouritesOnly);
  const selectionComplete = windowView.window ? windowView.status === 'held' : windowView.complete;
  const grouping = parseGrouping(params.get('group'));
  const setGrouping = (value: PhotoGrouping) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === 'none') next.delete('group');
        else next.set('group', value);
        return next;
      },
      { replace: true },
    );
  const plan = useAppStore((s) => s.milestones[projectId]);
  const me = useAppStore((s) => s.user);
  const project = useAppStore((s) => s.projects[projectId]);
  // Admins and the project's builder (its company's people on it) tag
  // photos; everyone else reads the tags.
  const canTag = project ? projectAbilities(projectStanding(me, project)).documentPhotos : false;
  const groups = useMemo(() => groupPhotos(visible, grouping, plan), [visible, grouping, plan]);
  // The lightbox steps through the photos in the order they are shown.
  const shownOrder = useMemo(() => groups.flatMap((g) => g.photos), [groups]);
  const byId = useMemo(() => Object.fromEntries(photos.map((p) => [p.id, p])), [photos]);

  // Photos held when the list first arrived show at once; later arrivals animate in.
  const seenAtLoad = useRef<Set<string> | null>(null);
  if (loaded && seenAtLoad.current === null) seenAtLoad.current = new Set(photos.map((p) => p.id));
  const isEntering = (id: string) => seenAtLoad.current !== null && !seenAtLoad.current.has(id);

  // The lightbox keeps the list it opened with, so un-favouriting in Favorites mode
  // does not pull the photo out from under the viewer; deleted photos still leave it.
  // Photos of older pages that arrive while it is open join its end, so Next goes on
  // past the last photo loaded when it opened (docs/FEATURES.md, "Big projects").
  const [lightbox, setLightbox] = useState<{ ids: string[]; id: string; from: 'shown' | 'all' } | null>(null);
  const lightboxPhotos = useMemo(() => {
    if (!lightbox) return [];
    const ids = [...lightbox.ids, ...arrivedAfter(lightbox.ids, lightbox.from === 'shown' ? shownOrder : photos)];
    return ids.map((id) => byId[id]).filter((p): p is ProjectImage => p !== undefined);
  }, [lightbox, byId, shownOrder, photos]);
  const lightboxIndex = lightbox ? lightboxPhotos.findIndex((p) => p.id === lightbox.id) : -1;

  // Closing the lightbox puts focus back on the tile of the photo last shown (the one
  // opened, or the one stepped to), so a keyboard user carries on where they were.
  const galleryRef = useRef<HTMLDivElement>(null);
  const lastShown = useRef<string | null>(null);
  if (lightbox) lastShown.current = lightbox.id;
  const returnFocus = (event: Event) => {
    const id = lastShown.current;
    const tile = id ? galleryRef.current?.querySelector<HTMLElement>(`[data-photo-id="${CSS.escape(id)}"] [data-opens-lightbox]`) : null;
    // A tile hidden with its tab (a timeline thumbnail opened the photo) cannot take focus.
    if (!tile || tile.getClientRects().length === 0) return;
    event.preventDefault();
    tile.focus();
  };
  // `?photo={id}` is the lightbox on that photo (links in notifications and mails
  // open it, from a cold start too); the open lightbox keeps it current, replacing
  // the history entry rather than adding one per photo.
  const linked = params.get('photo');
  // `&comment={id}` (a comment found by the search) is shown in the photo's thread.
  const linkedComment = params.get('comment');
  const showInUrl = (id: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('photo', id);
        else next.delete('photo');
        if (id !== prev.get('photo')) next.delete('comment');
        return next;
      },
      { replace: true },
    );
  useEffect(() => {
    if (!linked || !loaded || lightbox?.id === linked) return;
    if (!byId[linked]) return;
    // The linked photo may be outside the current filters: then the lightbox steps
    // through all of the project's photos.
    const from = shownOrder.some((p) => p.id === linked) ? 'shown' : 'all';
    setLightbox({ ids: (from === 'shown' ? shownOrder : photos).map((p) => p.id), id: linked, from });
    // Only a new link (or the list arriving) opens it; filters changing do not.
  }, [linked, loaded, byId[linked ?? '']]);

  const { openPicker, picker } = useComparePicker(photos, projectCompareBase(projectId));
  // A tap on a photo should not wait for the viewer: it is fetched once the page is idle.
  usePreloadWhenIdle([ProjectLightbox]);

  // Choosing photos to tag them all at once or report on them. The
  // choice is kept in the store, so the project's Reports tab can offer it; it ends
  // with the gallery.
  const selection = useAppStore((s) => s.gallerySelections[projectId]);
  const selecting = selection !== undefined;
  const selected = useMemo<ReadonlySet<string>>(() => new Set(selection ?? []), [selection]);
  const setSelected = (ids: Iterable<string>) => useAppStore.getState().gallerySelectionChanged(projectId, [...ids]);
  const setSelecting = (on: boolean) => useAppStore.getState().gallerySelectionChanged(projectId, on ? [] : null);
  useEffect(() => () => useAppStore.getState().gallerySelectionChanged(projectId, null), [projectId]);
  const [tagging, setTagging] = useState(false);
  const selectedPhotos = useMemo(() => [...selected].map((id) => byId[id]).filter((p): p is ProjectImage => p !== undefined), [selected, byId]);
  const toggleSelected = (photo: ProjectImage) => {
    const held = useAppStore.getState().gallerySelections[projectId] ?? [];
    if (held.includes(photo.id)) setSelected(held.filter((id) => id !== photo.id));
    else if (held.length >= TAG_PHOTOS_AT_ONCE) toast.warning(`You can tag up to ${TAG_PHOTOS_AT_ONCE} photos at a time`);
    else setSelected([...held, photo.id]);
  };
  const stopSelecting = () => setSelecting(false);

  const [editing, setEditing] = useState<ProjectImage | null>(null);
  const [removing, setRemoving] = useState<ProjectImage | null>(null);
  const [busy, setBusy] = useState(false);

  const confirmDelete = async () => {
    if (!removing) return;
    setBusy(true);
    const done = await deletePhoto(removing);
    setBusy(false);
    if (done) setRemoving(null);
  };

  const gallery = {
    favourites,
    now: filters.now,
    click: role.click,
    canEdit: role.canEdit,
    canDelete: role.canDelete,
    columns: role.columns,
    isEntering,
    onOpen: (photo: ProjectImage) => {
      setLightbox({ ids: shownOrder.map((p) => p.id), id: photo.id, from: 'shown' });
      showInUrl(photo.id);
    },
    onToggleFavourite: (photo: ProjectImage) => void toggleFavourite(photo),
    onEdit: setEditing,
    onDelete: setRemoving,
    selection: selecting ? { selected, onToggle: toggleSelected } : undefined,
  };

  let body: ReactNode;
  if (!loaded) {
    body = <GallerySkeleton columns={role.columns} />;
  } else if (photos.length === 0) {
    body = (
      <div className="space-y-4">
        <PhotoGallery {...gallery} photos={[]} emptyHint={ARRIVAL_HINT} />
        {emptyAction && <div className="flex justify-center">{emptyAction}</div>}
      </div>
    );
  } else if (visible.length === 0 && windowView.window && windowView.status !== 'held') {
    body = <WindowStatusLine view={windowView} alone />;
  } else if (visible.length === 0 && !selectionComplete && paging.loading) {
    body = <StillLooking favourites={filters.favouritesOnly} />;
  } else if (visible.length === 0 && chosenTags.length > 0) {
    body = (
      <EmptyResult
        title="No photos found"
        text={`No photos ${filters.favouritesOnly ? 'among your favorites ' : 'from these dates '}are tagged ${chosenTags.join(' and ')}.`}
        action={
          <Button variant="outline" size="sm" onClick={() => setChosenTags([])}>
            Clear tags
          </Button>
        }
      />
    );
  } else if (visible.length === 0) {
    // The gallery opens on the current month (SPEC §2), so early in a month a project
    // full of photos would look empty: say how many there are and show them in one tap.
    const showAll = (
      <Button variant="outline" size="sm" onClick={() => filters.setDate({ year: 'all', month: 'all' })}>
        Show all
      </Button>
    );
    const held = `This project has ${total === 1 ? '1 photo' : `${total.toLocaleString('en-US')} photos`} from other dates.`;
    body =
      role.emptyText === 'admin' && !filters.favouritesOnly ? (
        <EmptyResult title="No images match the selected filters" text={held} action={showAll} />
      ) : filters.favouritesOnly ? (
        <EmptyResult
          title="No photos found"
          text={selectionComplete ? "You haven't favorited any photos for this project." : 'None of the photos loaded so far is among your favorites.'}
          action={
            <Button variant="outline" size="sm" onClick={() => filters.setFavouritesOnly(false)}>
              Show all photos
            </Button>
          }
        />
      ) : (
        <EmptyResult title="No photos found" text={`No photos match your current filters. ${held}`} action={showAll} />
      );
  } else if (grouping === 'none') {
    body = <PhotoGallery {...gallery} photos={visible} />;
  } else {
    body = (
      <div className="space-y-8" data-testid="photo-groups">
        {groups.map((group) => (
          <section key={group.key} aria-label={group.title} data-testid="photo-group">
            <div className="mb-3 flex flex-wrap items-baseline gap-x-2 gap-y-0.5 border-b border-slate-100 pb-2 dark:border-slate-800">
              <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{group.title}</h3>
              <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{group.detail}</span>
              {group.note && <p className="w-full text-sm text-slate-600 italic dark:text-slate-300">“{group.note}”</p>}
            </div>
            <PhotoGallery {...gallery} photos={group.photos} />
          </section>
        ))}
      </div>
    );
  }

  return (
    <div className="space-y-4" ref={galleryRef}>
      {/* Filters over nothing only confuse: a project without photos shows none. */}
      {!(loaded && photos.length === 0) && (
        <PhotoFilterBar
          filters={filters}
          favouriteCount={favouriteCount}
          favouritesComplete={windowView.complete}
          shown={loaded ? visible.length : null}
          total={total}
          extra={
            <>
              <GroupBySelect value={grouping} onChange={setGrouping} />
              {canTag && !selecting && photos.length > 0 && (
                <Button variant="outline" size="sm" className="h-9" onClick={() => setSelecting(true)}>
                  <CheckSquare className="size-4" aria-hidden="true" />
                  Select
                </Button>
              )}
            </>
          }
          tagFilter={{ options: tagChoices, chosen: chosenTags, onChange: setChosenTags }}
        />
      )}
      {selecting && (
        <SelectionBar
          count={selected.size}
          shown={visible.length}
          onSelectAll={() => setSelected(visible.slice(0, TAG_PHOTOS_AT_ONCE).map((p) => p.id))}
          onClear={() => setSelected([])}
          onTag={() => setTagging(true)}
          onReport={onReport}
          onDone={stopSelecting}
        />
      )}
      {role.click === 'favourite' && photos.length > 0 && (
        <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
          <Heart className="size-3.5 text-rose-400" aria-hidden="true" />
          Tap a photo to add it to your favorites.
        </p>
      )}
      {body}
      {loaded && visible.length > 0 && <WindowStatusLine view={windowView} alone={false} />}
      {loaded && visible.length > 0 && filters.favouritesOnly && !selectionComplete && (
        <p role="status" data-testid="photo-favourites-partial" className="text-center text-xs text-slate-500 dark:text-slate-400">
          Some photos are still loading: favorites among them will appear here.
        </p>
      )}
      {loaded && <PagingStatus projectId={projectId} held={photos.length} total={total} />}

      <ProjectLightbox
        projectId={projectId}
        photos={lightboxPhotos}
        index={lightboxIndex >= 0 ? lightboxIndex : null}
        favourite={(id) => Boolean(favourites[id])}
        onIndexChange={(i) => {
          const next = lightboxPhotos[i];
          if (!next) return;
          setLightbox((lb) => (lb ? { ...lb, id: next.id } : lb));
          showInUrl(next.id);
        }}
        onClose={() => {
          setLightbox(null);
          showInUrl(null);
        }}
        onToggleFavourite={(photo) => void toggleFavourite(photo)}
        onCloseAutoFocus={returnFocus}
        canPickThumbnail={role.canPickThumbnail}
        canTag={canTag}
        onCompare={photos.length > 1 ? (photo) => openPicker([photo.id]) : undefined}
        focusComment={linkedComment}
      />
      {canTag && (
        <TagPhotosDialog
          projectId={projectId}
          photos={selectedPhotos}
          open={tagging && selectedPhotos.length > 0}
          onOpenChange={setTagging}
          onDone={() => {
            setTagging(false);
            stopSelecting();
          }}
        />
      )}
      {picker}
      {editing && <EditPhotoDialog key={editing.id} photo={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title="Are you sure you want to delete this image?"
        description="This action cannot be undone. The photo is removed from the project for everyone."
        confirmLabel="Delete Image"
        busy={busy}
        onConfirm={() => void confirmDelete()}
      />
    </div>
  );
}
