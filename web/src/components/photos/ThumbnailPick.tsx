import { useState } from 'react';
import { ImageIcon } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';

/**
 * The admin's pick of a project's thumbnail (SPEC §3), from the lightbox: "Set as
 * thumbnail" on any photo; the picked one shows "Project thumbnail", pressed, and
 * pressing it hands the thumbnail back to the newest upload (the default).
 */
export function ThumbnailPick({ photo, className }: { photo: ProjectImage; className: string }) {
  const project = useAppStore((s) => s.projects[photo.projectId]);
  const [busy, setBusy] = useState(false);
  if (!project) return null;
  const picked = project.thumbnailPinned && project.thumbnailUrl === photo.thumbUrl;

  const pick = async () => {
    setBusy(true);
    try {
      await commands.updateProject({ id: project.id, thumbnailId: picked ? '' : photo.id });
      toast.success(picked ? 'The newest photo is the project thumbnail again' : 'Project thumbnail updated');
    } catch (err) {
      toastRequestError(err, 'Failed to update project thumbnail');
    } finally {
      setBusy(false);
    }
  };

  // A toggle: pressed on the picked photo; pressing it again gives the thumbnail back
  // to the newest photo.
  const label = picked ? 'Project thumbnail' : 'Set as project thumbnail';
  return (
    <button
      type="button"
      onClick={() => void pick()}
      disabled={busy}
      aria-pressed={picked}
      title={picked ? 'The project thumbnail. Press to use the newest photo instead.' : undefined}
      data-testid="thumbnail-pick"
      className={cn(className, 'w-auto gap-2 px-3 disabled:opacity-60', picked && 'text-amber-300 hover:text-amber-200')}
    >
      <ImageIcon className={cn('size-5', picked && 'fill-amber-300/30')} aria-hidden="true" />
      <span className="sr-only sm:not-sr-only sm:text-sm sm:font-medium">{label}</span>
    </button>
  );
}
