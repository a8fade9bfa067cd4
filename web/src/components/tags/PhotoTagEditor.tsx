import { useState } from 'react';
import { toast } from '../../lib/toast';
import type { ProjectImage } from '../../protocol/types';
import { canonicalTag, hasRoomForTag, tagKind } from '../../lib/tags';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { TagChipList } from './TagChip';
import { TagCombobox } from './TagCombobox';
import { useProjectTags } from './useProjectTags';

/** The server's words for a refused tag change: its field message (e.g. the 20-tag limit) first. */
export function tagFailure(title: string, err: unknown) {
  const detail =
    err instanceof RequestError && err.fromServer ? (err.fieldMessage('addTags') ?? err.fieldMessage('removeTags') ?? err.message) : undefined;
  toast.error(title, detail && detail !== title ? { description: detail } : undefined);
}

/**
 * A photo's tags in the lightbox (docs/FEATURES.md, "Tags and search"). Admins and the
 * project's builder add them with the combobox and remove them with each chip's ×;
 * everyone else reads them. Each change is one `tag_photos`; the photo comes back (and
 * reaches other viewers) live.
 */
export function PhotoTagEditor({ photo, canTag }: { photo: ProjectImage; canTag: boolean }) {
  const { tags: known, reload } = useProjectTags(canTag ? photo.projectId : null);
  const [busy, setBusy] = useState(false);

  const change = async (addTags: string[], removeTags: string[]): Promise<boolean> => {
    setBusy(true);
    try {
      await commands.tagPhotos({ projectId: photo.projectId, imageIds: [photo.id], addTags, removeTags });
      reload();
      return true;
    } catch (err) {
      tagFailure(addTags.length > 0 ? 'Could not add the tag' : 'Could not remove the tag', err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  if (!canTag) {
    return <TagChipList tags={photo.tags} tone="dark" size="sm" className="mt-2" label="Photo tags" />;
  }
  return (
    <div className="mt-2 flex flex-wrap items-start gap-1.5" data-testid="photo-tags">
      <TagChipList
        tags={photo.tags}
        kindOf={(t) => tagKind(t, known)}
        tone="dark"
        label="Photo tags"
        disabled={busy}
        onRemove={(tag) => void change([], [tag])}
        className="contents"
      />
      <TagCombobox
        label="Add tag"
        hideLabel
        known={known}
        chosen={photo.tags}
        tone="dark"
        placement="top"
        full={!hasRoomForTag(photo.tags)}
        className="w-44"
        onAdd={(tag) => change([canonicalTag(tag, known)], [])}
      />
    </div>
  );
}
