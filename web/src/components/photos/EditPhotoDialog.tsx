import { useState, type FormEvent } from 'react';
import type { ImageCategory, ProjectImage } from '../../protocol/types';
import { CATEGORIES, CATEGORY_LABELS } from '../../lib/imageCategories';
import { MAX_LENGTH } from '../../lib/limits';
import { orderedMilestones } from '../../lib/milestones';
import { useAppStore } from '../../store';
import { Dialog, FormDialogActions } from '../ui/Dialog';
import { Field } from '../ui/Field';
import { SelectField } from '../ui/Select';
import { updatePhoto } from './usePhotos';

const CATEGORY_OPTIONS = CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));

/** Caption and category of one photo; mounted while open, so each opening starts fresh. */
export function EditPhotoDialog({ photo, onClose }: { photo: ProjectImage; onClose: () => void }) {
  const [caption, setCaption] = useState(photo.caption ?? '');
  const [category, setCategory] = useState<ImageCategory>(photo.category);
  const [milestoneId, setMilestoneId] = useState(photo.milestoneId ?? '');
  const plan = useAppStore((s) => s.milestones[photo.projectId]);
  const milestones = plan ? orderedMilestones(plan) : [];
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const change: { caption?: string; category?: ImageCategory; milestoneId?: string } = {};
    // Only what changed is sent; an empty caption removes it.
    if (caption.trim() !== (photo.caption ?? '')) change.caption = caption.trim();
    if (category !== photo.category) change.category = category;
    // An empty id removes the tag.
    if (milestoneId !== (photo.milestoneId ?? '')) change.milestoneId = milestoneId;
    if (Object.keys(change).length === 0) {
      onClose();
      return;
    }
    setSaving(true);
    const saved = await updatePhoto(photo.id, change);
    setSaving(false);
    if (saved) onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Edit photo details" busy={saving} widthClass="max-w-[440px]">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <div className="overflow-hidden rounded-lg bg-slate-100 dark:bg-slate-800">
          <img src={photo.thumbUrl} alt="" className="aspect-[16/9] w-full object-cover" />
        </div>
        <Field
          label="Caption"
          value={caption}
          onChange={(e) => setCaption(e.target.value)}
          maxLength={MAX_LENGTH.caption}
          placeholder="Describe what the photo shows"
          hint="Leave empty to remove the caption."
          disabled={saving}
          autoFocus
        />
        <SelectField
          label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value as ImageCategory)}
          options={CATEGORY_OPTIONS}
          disabled={saving}
        />
        {(milestones.length > 0 || photo.milestoneId) && (
          <SelectField
            label="Milestone"
            value={milestoneId}
            onChange={(e) => setMilestoneId(e.target.value)}
            options={[
              { value: '', label: 'No milestone' },
              ...milestones.map((m) => ({ value: m.id, label: m.name })),
              // A tag whose milestone is no longer in the plan still shows as chosen.
              ...(photo.milestoneId && !milestones.some((m) => m.id === photo.milestoneId)
                ? [{ value: photo.milestoneId, label: 'Removed milestone' }]
                : []),
            ]}
            disabled={saving}
          />
        )}
        <FormDialogActions saving={saving} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
