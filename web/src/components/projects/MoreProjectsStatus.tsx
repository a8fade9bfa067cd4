import { OlderPhotosStatus, type ReadWords } from '../photos/OlderPhotosStatus';
import { commands } from '../../sync/commands';
import { useAppStore } from '../../store';

const PROJECTS: ReadWords = { loading: 'Loading projects…', failed: 'Some projects could not be loaded', testId: 'project-paging' };

/**
 * Where the background read of the projects the hello did not carry stands
 * (docs/FEATURES.md, "Big projects"): an admin of a thousand projects sees the first
 * ones at once, and searches, filters and counts over all of them once this ends.
 */
export function MoreProjectsStatus({ className }: { className?: string }) {
  const paging = useAppStore((s) => s.projectPaging);
  const held = useAppStore((s) => Object.keys(s.projects).length);
  return (
    <OlderPhotosStatus
      held={held}
      total={paging.total}
      loading={paging.loading}
      failed={paging.failed}
      onRetry={() => commands.retryProjectPages()}
      className={className}
      words={PROJECTS}
    />
  );
}
