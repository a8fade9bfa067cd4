import { useCallback, useEffect, useState } from 'react';
import type { InstallationSettings } from '../../protocol/types';
import { useAppStore } from '../../store';
import { commands, type HeldSettings } from '../../sync/commands';
import { RequestError } from '../../sync/requests';

export interface InstallationSettingsState {
  held: HeldSettings | null;
  failed: string | null;
  /** Sends the whole set with this change; resolves with what the server kept, rejects as the request did. */
  save: (change: Partial<InstallationSettings>) => Promise<HeldSettings>;
}

/**
 * The installation's settings for the admin's cards (photo locations, two-factor
 * sign-in). One copy for all of them: each update sends every setting, so a card must
 * send the others as they are now, not as it read them when the page opened.
 */
export function useInstallationSettings(): InstallationSettingsState {
  const epoch = useAppStore((s) => s.liveEpoch);
  const [held, setHeld] = useState<HeldSettings | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    if (epoch === 0) return;
    let current = true;
    commands
      .installationSettings()
      .then((s) => {
        if (!current) return;
        setHeld(s);
        setFailed(null);
      })
      .catch((err) => current && setFailed(err instanceof RequestError && err.fromServer ? err.message : 'The settings could not be loaded.'));
    return () => {
      current = false;
    };
  }, [epoch]);

  const save = useCallback(
    async (change: Partial<InstallationSettings>) => {
      if (!held) throw new Error('The settings are not loaded yet.');
      const { storePhotoLocations, requireFactorAdmins, requireFactorCompanyLeads } = { ...held, ...change };
      const next = await commands.updateInstallationSettings({ storePhotoLocations, requireFactorAdmins, requireFactorCompanyLeads });
      setHeld(next);
      return next;
    },
    [held],
  );

  return { held, failed, save };
}
