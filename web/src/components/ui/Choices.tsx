import { useId, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A fieldset's caption over a group of choices. */
export function ChoiceLegend({ children, className }: { children: ReactNode; className?: string }) {
  return <legend className={cn('mb-2 text-sm font-medium text-slate-700 dark:text-slate-200', className)}>{children}</legend>;
}

/** A radio as a card: a title and a line of hint; the chosen one is outlined. */
export function ChoiceCard({
  name,
  value,
  checked,
  onChange,
  title,
  hint,
  disabled = false,
  describedBy,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  title: string;
  hint: ReactNode;
  disabled?: boolean;
  /** An element that says more about this choice (e.g. why it is not available). */
  describedBy?: string;
}) {
  return (
    <label
      className={cn(
        'flex items-start gap-3 rounded-xl border p-3 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
        disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
        checked
          ? 'border-brand-500 bg-amber-50/70 dark:border-brand-400 dark:bg-amber-400/10'
          : cn('border-slate-200 dark:border-slate-700', !disabled && 'hover:border-slate-300 dark:hover:border-slate-600'),
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onChange}
        disabled={disabled}
        aria-describedby={describedBy}
        className="mt-0.5 size-4 accent-amber-600"
      />
      <span className="min-w-0">
        <span className="block text-sm font-medium text-slate-900 dark:text-white">{title}</span>
        <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400">{hint}</span>
      </span>
    </label>
  );
}

/**
 * Radios drawn as a segmented control: a row of labels on a grey track, the chosen one
 * raised. Native radios underneath, so arrows move the choice and a label is the name.
 */
export function SegmentedControl<T extends string | number>({
  name,
  value,
  options,
  onChange,
  disabled = false,
  className,
}: {
  name: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn('grid gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-800/70', className)}
      style={{ gridTemplateColumns: `repeat(${options.length}, minmax(0, 1fr))` }}
    >
      {options.map((option) => (
        <label
          key={String(option.value)}
          className={cn(
            'flex h-9 items-center justify-center rounded-lg px-2 text-sm font-medium whitespace-nowrap transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
            disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
            value === option.value
              ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white'
              : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
          )}
        >
          <input
            type="radio"
            name={name}
            value={String(option.value)}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
            disabled={disabled}
            className="sr-only"
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}

/**
 * An on/off setting with its label and a line of hint. A native checkbox with the
 * switch role, so Space toggles it and screen readers say "switch, on".
 */
export function SwitchField({
  label,
  hint,
  checked,
  onChange,
  disabled = false,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </p>
        )}
      </div>
      <span className="relative inline-flex shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.target.checked)}
          className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
        />
        <span
          aria-hidden="true"
          className={cn(
            'flex h-6 w-11 items-center rounded-full p-0.5 transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 peer-focus-visible:ring-offset-2 peer-disabled:opacity-60 dark:peer-focus-visible:ring-offset-slate-900',
            checked ? 'bg-amber-600' : 'bg-slate-300 dark:bg-slate-600',
          )}
        >
          <span className={cn('size-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-5' : 'translate-x-0')} />
        </span>
      </span>
    </div>
  );
}

/** A checkbox with its label and a line of hint beside it. */
export function CheckboxField({
  label,
  hint,
  checked,
  onChange,
  disabled = false,
  className,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-0.5 size-4 shrink-0 rounded accent-amber-600 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none disabled:cursor-not-allowed"
      />
      <div className="min-w-0">
        <label htmlFor={id} className={cn('text-sm font-medium text-slate-700 dark:text-slate-200', disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer')}>
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
