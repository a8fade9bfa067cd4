import { cn } from '../../lib/cn';

/** The "Before" / "After" chip over a compared photo. */
export function SideLabel({ side, className }: { side: 'before' | 'after'; className?: string }) {
  return (
    <span
      className={cn(
        'pointer-events-none rounded-full px-2.5 py-1 text-xs font-semibold tracking-wide uppercase shadow-sm',
        side === 'before' ? 'bg-slate-950/75 text-white' : 'bg-brand-400 text-slate-950',
        className,
      )}
    >
      {side === 'before' ? 'Before' : 'After'}
    </span>
  );
}
