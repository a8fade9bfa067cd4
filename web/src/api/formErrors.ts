import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from './http';

/**
 * Puts the server's per-field validation messages onto the form. Field names in the
 * error body match the request keys, which are the form's field names. Returns true
 * when at least one field error was shown.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  known: readonly string[],
): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  let shown = false;
  for (const field of error.fields) {
    if (known.includes(field.field)) {
      setError(field.field as Path<T>, { type: 'server', message: field.message });
      shown = true;
    }
  }
  return shown;
}
