// SPEC.md §9: dates are shown in en-US format (month, day, year).
const shortDate = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

export function formatDate(ms: number): string {
  return shortDate.format(new Date(ms));
}

const longAgo = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/**
 * How long ago, for comments and notifications: "just now", "5 min ago", "3 h ago",
 * "2 d ago", then the date ("Mar 4", with the year when it is not this year's).
 */
export function relativeTime(ms: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days} d ago`;
  const date = new Date(ms);
  return date.getFullYear() === new Date(now).getFullYear() ? longAgo.format(date) : formatDate(ms);
}
