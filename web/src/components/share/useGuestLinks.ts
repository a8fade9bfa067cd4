import { useCallback, useEffect, useState } from 'react';
import type { GuestLink } from '../../protocol/types';
import { commands } from '../../sync/commands';
import { toastRequestError } from '../../sync/errors';

type Created = { link: GuestLink; url: string };

/**
 * A share dialog's links (the project's, and a report's): the
 * project's links, read afresh each time the dialog opens, and the one just made, whose
 * URL is shown this once — closing the dialog forgets it.
 */
export function useGuestLinks(projectId: string, open: boolean) {
  const [created, setCreated] = useState<Created | null>(null);
  const [links, setLinks] = useState<GuestLink[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      setLinks(await commands.listGuestLinks(projectId));
    } catch (err) {
      setFailed(true);
      toastRequestError(err, 'Failed to load links');
    }
  }, [projectId]);

  useEffect(() => {
    if (!open) return;
    setCreated(null);
    setLinks(null);
    void load();
  }, [open, load]);

  const onCreated = useCallback(
    (link: GuestLink, url: string) => {
      setCreated({ link, url });
      setLinks((held) => (held ? [link, ...held.filter((l) => l.id !== link.id)] : held));
      void load();
    },
    [load],
  );

  return { created, clearCreated: () => setCreated(null), links, failed, reload: () => void load(), onCreated };
}

/** A new-link form's submit: `request` makes the link; a failure is a toast, the form stays. */
export function useCreateLink(request: () => Promise<Created>, onCreated: (link: GuestLink, url: string) => void) {
  const [saving, setSaving] = useState(false);
  const create = async () => {
    setSaving(true);
    try {
      const { link, url } = await request();
      onCreated(link, url);
    } catch (err) {
      toastRequestError(err, 'Failed to create link');
    } finally {
      setSaving(false);
    }
  };
  return { saving, create };
}
