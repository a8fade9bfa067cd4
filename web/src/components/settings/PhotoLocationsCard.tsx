import { useState } from 'react';
import { MapPin } from 'lucide-react';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { RequestError } from '../../sync/requests';
import { ConfirmDialog } from '../dialogs/ConfirmDialog';
import { Notice } from '../ui/Notice';
import type { InstallationSettingsState } from './useInstallationSettings';
import { SettingsHeading } from './SettingsHeading';

const photosLabel = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);

/**
 * Profile & Settings, admins only (docs/FEATURES.md, "Tags and search"): whether photos
 * keep where they were taken (the camera's GPS, read from EXIF at upload). Turning it off
 * forgets every kept location, so it asks first and says how many photos lose theirs.
 */
export function PhotoLocationsCard({ settings }: { settings: InstallationSettingsState }) {
  const { held, failed } = settings;
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const save = async (on: boolean) => {
    setSaving(true);
    try {
      const next = await settings.save({ storePhotoLocations: on });
      toast.success(next.storePhotoLocations ? 'New photos will keep where they were taken' : 'Photo locations are off and forgotten');
      setConfirming(false);
    } catch (err) {
      toast.error('Could not change the setting', err instanceof RequestError && err.fromServer ? { description: err.message } : undefined);
    } finally {
      setSaving(false);
    }
  };

  const on = held?.storePhotoLocations ?? false;
  const toggle = () => {
    if (!held) return;
    if (on) setConfirming(true);
    else void save(true);
  };

  return (
    <section
      id="photo-locations"
      aria-label="Photo locations"
      className="scroll-mt-24 rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <SettingsHeading
        icon={<MapPin className="size-4.5" aria-hidden="true" />}
        title="Photo locations"
        description="For everyone on this Sitecast. Guests never see a photo’s location."
      />
      <div className="space-y-3 px-5 py-4 sm:px-6">
        <div className="flex items-center justify-between gap-4">
          <div>
            <p id="store-locations" className="text-sm font-medium text-slate-900 dark:text-slate-100">
              Keep where photos were taken (from the camera's GPS)
            </p>
            <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="photos-with-location">
              {held ? `${photosLabel(held.photosWithLocation)} ${held.photosWithLocation === 1 ? 'has' : 'have'} a location kept.` : failed ? '' : 'Loading…'}
            </p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-labelledby="store-locations"
            disabled={!held || saving}
            onClick={toggle}
            className={cn(
              'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-60 dark:focus-visible:ring-offset-slate-900',
              on ? 'bg-amber-500' : 'bg-slate-300 dark:bg-slate-700',
            )}
          >
            <span className={cn('inline-block size-5 rounded-full bg-white shadow transition', on ? 'translate-x-5.5' : 'translate-x-0.5')} />
          </button>
        </div>
        {failed && <Notice tone="error">{failed}</Notice>}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Forget the location of ${photosLabel(held?.photosWithLocation ?? 0)}?`}
        description="New photos will not keep one either. This cannot be undone."
        confirmLabel="Forget locations"
        busy={saving}
        onConfirm={() => void save(false)}
      />
    </section>
  );
}
