import type { ProjectStatus } from '../protocol/types';
import { cn } from '../lib/cn';
import { STATUS_BADGE_CLASSES, statusLabel } from '../lib/projectStatus';

export function StatusBadge({ status, className }: { status: ProjectStatus; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        STATUS_BADGE_CLASSES[status] ?? STATUS_BADGE_CLASSES['on-hold'],
        className,
      )}
    >
      {statusLabel(status)}
    </span>
  );
}
