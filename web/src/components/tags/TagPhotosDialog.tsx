import { useMemo, useState } from 'react';
import { toast } from '../../lib/toast';
import type { ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { TAGS_PER_REQUEST } from '../../lib/limits';
import { usedTags } from '../../lib/photoFilters';
import { canonicalTag, sameTag, tagKind, withoutTag, withTag } from '../../lib/tags';
import { commands } from '../../sync/commands';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { TagChip, TagChipList } from './TagChip';
import { TagCombobox } from './TagCombobox';
import { tagFailure } from './PhotoTagEditor';
import { useProjectTags } from './useProjectTags';

const photosLabel = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);

/** What the toast says once the server has tagged the selection. */
export function taggedMessage(photos: number, added: number, removed: number): string {
  if (added === 0 && removed > 0) return `Removed tags from ${photosLabel(photos)}`;
  return `Tagged ${photosLabel(photos)}`;
}

/**
 * "Tag" for a gallery selection: tags to add to every selected photo and,
 * among the tags they carry, ones to take off; one `tag_photos` for all of it.
 */
export function TagPhotosDialog({
  projectId,
  photos,
  open,
  onOpenChange,
  onDone,
}: {
  projectId: string;
  photos: ProjectImage[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}) {
  const { tags: known, reload } = useProjectTags(open ? projectId : null);
  const [adding, setAdding] = useState<string[]>([]);
  const [removing, setRemoving] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const present = useMemo(() => usedTags(photos), [photos]);

  const close = (next: boolean) => {
    if (!next) {
      setAdding([]);
      setRemoving([]);
    }
    onOpenChange(next);
  };

  const save = async () => {
    if (adding.length === 0 && removing.length === 0) return;
    setSaving(true);
    try {
      await commands.tagPhotos({ projectId, imageIds: photos.map((p) => p.id), addTags: adding, removeTags: removing });
      toast.success(taggedMessage(photos.length, adding.length, removing.length));
      reload();
      setAdding([]);
      setRemoving([]);
      onDone();
    } catch (err) {
      tagFailure('Could not tag the photos', err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close} title={`Tag ${photosLabel(photos.length)}`} busy={saving} widthClass="max-w-[480px]"
      description="Tags help everyone find photos by area and trade.">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        className="space-y-5"
      >
        <div className="space-y-2">
          <TagCombobox
            label="Add tags"
            known={known}
            chosen={adding}
            full={adding.length >= TAGS_PER_REQUEST}
            disabled={saving}
            onAdd={(tag) => {
              const name = canonicalTag(tag, known);
              setAdding((list) => withTag(list, name));
              setRemoving((list) => withoutTag(list, name));
            }}
          />
          {adding.length > 0 && (
            <TagChipList
              tags={adding}
              kindOf={(t) => tagKind(t, known)}
              label="Tags to add"
              disabled={saving}
              onRemove={(tag) => setAdding((list) => withoutTag(list, tag))}
            />
          )}
        </div>
        {present.length > 0 && (
          <fieldset>
            <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">On these photos</legend>
            <p className="text-xs text-slate-500 dark:text-slate-400">Tap a tag to take it off every selected photo.</p>
            <ul className="mt-2 flex flex-wrap gap-1.5">
              {present.map(({ tag, photos: n }) => {
                const off = removing.some((t) => sameTag(t, tag));
                return (
                  <li key={tag}>
                    <button
                      type="button"
                      aria-pressed={off}
                      title={off ? `Keep ${tag}` : `Remove ${tag} from the selected photos`}
                      disabled={saving || (!off && removing.length >= TAGS_PER_REQUEST)}
                      onClick={() => setRemoving((list) => (off ? withoutTag(list, tag) : withTag(list, tag)))}
                      className="rounded-full focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
                    >
                      <TagChip
                        tag={`${tag} · ${n}`}
                        kind={tagKind(tag, known)}
                        className={cn(off && 'border-red-200 bg-red-50 text-red-800 line-through dark:border-red-400/30 dark:bg-red-400/10 dark:text-red-200')}
                      />
                    </button>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        )}
        <DialogActions>
          <Button variant="outline" onClick={() => close(false)} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="secondary" loading={saving} disabled={saving || (adding.length === 0 && removing.length === 0)}>
            {saving ? 'Saving…' : 'Save tags'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
