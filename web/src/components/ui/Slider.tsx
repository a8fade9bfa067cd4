import { useId } from 'react';
import { cn } from '../../lib/cn';

/** Progress slider (SPEC §9: 0 to 100, step 5) on a native range input, so arrows and Home/End work. */
export function ProgressSlider({
  label,
  value,
  onChange,
  disabled,
  className,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('space-y-2', className)}>
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {label}
        </label>
        <output htmlFor={id} className="text-sm font-semibold tabular-nums text-slate-900 dark:text-white">
          {value}%
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        step={5}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value))}
        className="progress-slider w-full"
        style={{ ['--fill' as string]: `${value}%` }}
      />
    </div>
  );
}
