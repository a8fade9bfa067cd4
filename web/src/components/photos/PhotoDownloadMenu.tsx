import { useState } from 'react';
import { ChevronDown, Download, Heart, Images, PenLine } from 'lucide-react';
import { photosZipPath } from '../../api/photos';
import { cn } from '../../lib/cn';
import { PendingTrigger, useTriggerSwap } from '../lazyPart';
import { useLazyModule } from '../../lib/lazyModule';
import { buttonClasses } from '../ui/Button';
import { menuLibrary } from '../ui/radixLibraries';

const itemClasses =
  'flex cursor-pointer select-none items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800 dark:data-[highlighted]:text-white';

/**
 * Zip downloads of the project's photos: all of them, or this user's favourites; and,
 * once any photo has markup, the same with marked-up photos flattened.
 */
export function PhotoDownloadMenu({
  projectId,
  photoCount,
  favouriteCount,
  markedCount = 0,
}: {
  projectId: string;
  photoCount: number;
  favouriteCount: number;
  /** Photos with markup. */
  markedCount?: number;
}) {
  const [pressed, setPressed] = useState(false);
  const DropdownMenu = useLazyModule(menuLibrary, { what: 'Downloads', wanted: pressed, onFailed: () => setPressed(false) });
  const { pendingRef, ref } = useTriggerSwap(DropdownMenu !== null);
  const trigger = {
    className: buttonClasses('outline', 'sm'),
    disabled: photoCount === 0,
    children: (
      <>
        <Download className="size-4" aria-hidden="true" />
        Download
        <ChevronDown className="size-3.5 text-slate-400" aria-hidden="true" />
      </>
    ),
  };
  if (!DropdownMenu) return <PendingTrigger popup="menu" pendingRef={pendingRef} onPress={() => setPressed(true)} {...trigger} />;

  return (
    <DropdownMenu.Root modal={false} defaultOpen={pressed}>
      <DropdownMenu.Trigger ref={ref} {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 w-60 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          <DropdownMenu.Item asChild className={itemClasses}>
            <a href={photosZipPath(projectId)} download>
              <Images className="size-4 text-slate-400" aria-hidden="true" />
              <span className="flex-1">Download all</span>
              <span className="text-xs tabular-nums text-slate-400">{photoCount}</span>
            </a>
          </DropdownMenu.Item>
          {favouriteCount > 0 ? (
            <DropdownMenu.Item asChild className={itemClasses}>
              <a href={photosZipPath(projectId, true)} download>
                <Heart className="size-4 text-rose-400" aria-hidden="true" />
                <span className="flex-1">Download favorites</span>
                <span className="text-xs tabular-nums text-slate-400">{favouriteCount}</span>
              </a>
            </DropdownMenu.Item>
          ) : (
            <DropdownMenu.Item disabled className={cn(itemClasses)}>
              <Heart className="size-4 text-slate-300" aria-hidden="true" />
              <span className="flex-1">Download favorites</span>
              <span className="text-xs text-slate-500 dark:text-slate-400">none yet</span>
            </DropdownMenu.Item>
          )}
          {markedCount > 0 && (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-slate-100 dark:bg-slate-800" />
              <DropdownMenu.Item asChild className={itemClasses}>
                <a href={photosZipPath(projectId, false, true)} download>
                  <PenLine className="size-4 text-rose-500" aria-hidden="true" />
                  <span className="flex-1">All, with markup</span>
                  <span className="text-xs tabular-nums text-slate-400">{markedCount} marked</span>
                </a>
              </DropdownMenu.Item>
              {favouriteCount > 0 && (
                <DropdownMenu.Item asChild className={itemClasses}>
                  <a href={photosZipPath(projectId, true, true)} download>
                    <PenLine className="size-4 text-rose-500" aria-hidden="true" />
                    <span className="flex-1">Favorites, with markup</span>
                  </a>
                </DropdownMenu.Item>
              )}
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
