import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Images, SplitSquareHorizontal, X } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import { comparePath, resolveComparePair } from '../../lib/comparePaths';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { ComparePicker } from './ComparePicker';
import { CompareView } from './CompareView';
import type { MarkupSource } from '../markup/markupSources';

/** The dark full-screen frame around what is not (yet) a comparison. */
function Frame({ children }: { children: ReactNode }) {
  return <div className="fixed inset-0 z-40 flex flex-col items-center justify-center bg-slate-950 px-6 text-center text-white">{children}</div>;
}

/**
 * `/…/compare?a=&b=` for the signed-in app and the guest page alike: reads the pair
 * from the address against the photos this viewer may see, and shows the comparison,
 * or a way to pick one. Swapping and picking replace the address, so Close (history
 * back) returns to where the view was opened from.
 */
export function CompareScreen({
  photos,
  loaded,
  projectTitle,
  basePath,
  onClose,
  linkNote,
  markupSource,
}: {
  /** Newest first. */
  photos: ProjectImage[];
  loaded: boolean;
  projectTitle: string;
  /** The project's (or the guest link's) path; the compare route hangs under it. */
  basePath: string;
  onClose: () => void;
  linkNote: string;
  /** Each side's markup, when the viewer turns it on. */
  markupSource?: MarkupSource;
}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const pair = resolveComparePair(photos, params.get('a'), params.get('b'));
  const [picking, setPicking] = useState(() => !params.get('a') || !params.get('b'));
  const show = (a: string, b: string) => navigate(comparePath(basePath, a, b), { replace: true });

  if (!loaded) {
    return (
      <Frame>
        <Spinner className="size-6 text-white/80" />
        <p className="mt-3 text-sm text-white/80" role="status">
          Loading photos…
        </p>
      </Frame>
    );
  }

  const picker = (
    <ComparePicker
      open={picking}
      onOpenChange={setPicking}
      photos={photos}
      initial={pair.state === 'ready' ? [pair.before.id, pair.after.id] : []}
      onCompare={(before, after) => {
        setPicking(false);
        show(before.id, after.id);
      }}
    />
  );

  if (pair.state === 'ready') {
    return (
      <>
        <CompareView
          before={pair.before}
          after={pair.after}
          projectTitle={projectTitle}
          linkNote={linkNote}
          markupSource={markupSource}
          onSwap={() => show(pair.after.id, pair.before.id)}
          onChangePhotos={() => setPicking(true)}
          onClose={onClose}
        />
        {picker}
      </>
    );
  }

  return (
    <Frame>
      <span className="flex size-14 items-center justify-center rounded-2xl bg-white/10">
        <SplitSquareHorizontal className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-5 text-2xl font-semibold">Before / after</h1>
      <p className="mt-2 max-w-sm text-sm text-white/75">
        {pair.state === 'missing'
          ? 'One of these photos is no longer available. Pick two photos to compare.'
          : photos.length < 2
            ? `${projectTitle} needs at least two photos to compare.`
            : `Pick two photos of ${projectTitle} to see how far it has come.`}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {photos.length >= 2 && (
          <Button variant="secondary" onClick={() => setPicking(true)}>
            <Images className="size-4" aria-hidden="true" />
            Pick photos
          </Button>
        )}
        <Button variant="outline" onClick={onClose} className="border-white/20 bg-transparent text-white hover:bg-white/10 dark:bg-transparent">
          <X className="size-4" aria-hidden="true" />
          Close
        </Button>
      </div>
      {picker}
    </Frame>
  );
}
