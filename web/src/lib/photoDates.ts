// SPEC §9: dates are shown in en-US format (month short or long, day, year).
const withoutYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const withYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const long = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** The date on a gallery tile: SPEC §2 omits the year for the current year. */
export function tileDateLabel(ms: number, now: Date): string {
  const date = new Date(ms);
  return date.getFullYear() === now.getFullYear() ? withoutYear.format(date) : withYear.format(date);
}

/** The date under a photo in the lightbox. */
export function longDateLabel(ms: number): string {
  return long.format(new Date(ms));
}
