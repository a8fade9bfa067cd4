// SPEC.md §9: dates are shown in en-US format (month, day, year).
const shortDate = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

export function formatDate(ms: number): string {
  return shortDate.format(new Date(ms));
}
