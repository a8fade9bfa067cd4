import { Link, type LinkProps } from 'react-router';
import { cn } from '../lib/cn';

export function TextLink({ className, ...rest }: LinkProps) {
  return (
    <Link
      className={cn(
        'rounded font-medium text-amber-700 underline-offset-4 hover:text-amber-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-amber-400 dark:hover:text-amber-300',
        className,
      )}
      {...rest}
    />
  );
}
