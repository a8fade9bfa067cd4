import { avatarColor, initials } from '../lib/avatar';
import { cn } from '../lib/cn';

type Size = 'sm' | 'md' | 'lg';

const sizes: Record<Size, string> = {
  sm: 'size-8 text-xs',
  md: 'size-10 text-sm',
  lg: 'size-16 text-xl',
};

const dotSizes: Record<Size, string> = {
  sm: 'size-2.5',
  md: 'size-3',
  lg: 'size-4',
};

export interface AvatarProps {
  name: string | null | undefined;
  size?: Size;
  /** Shows the green online dot. */
  online?: boolean;
  className?: string;
}

export function Avatar({ name, size = 'md', online = false, className }: AvatarProps) {
  return (
    <span className={cn('relative inline-flex shrink-0', className)}>
      <span
        aria-hidden="true"
        className={cn(
          'inline-flex items-center justify-center rounded-full font-semibold select-none',
          sizes[size],
          avatarColor(name).className,
        )}
      >
        {initials(name)}
      </span>
      {online && (
        <span
          className={cn(
            'absolute right-0 bottom-0 rounded-full bg-green-500 ring-2 ring-white dark:ring-slate-900',
            dotSizes[size],
          )}
        >
          <span className="sr-only">Online</span>
        </span>
      )}
    </span>
  );
}
