import { useCallback, useEffect, useState } from 'react';
import type { TagUse } from '../../protocol/types';
import { useAppStore } from '../../store';
import { commands } from '../../sync/commands';

/**
 * The project's tags for the "Add tag" combobox: used ones first, then the
 * areas and trades not used yet, as `list_tags` orders them. Read when a tag editor
 * opens (and on reconnect); `reload` after a change, so a new tag is offered next time.
 */
export function useProjectTags(projectId: string | null) {
  const epoch = useAppStore((s) => s.liveEpoch);
  const [tags, setTags] = useState<TagUse[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!projectId || epoch === 0) return;
    let current = true;
    commands
      .listTags(projectId)
      .then((list) => current && setTags(list))
      // The combobox still takes typed tags without the list.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [projectId, epoch, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { tags, reload };
}
