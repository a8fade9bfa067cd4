import { useEffect, useState } from 'react';

/** The time, ticking once a minute while shown, so "expires in …" and "5 min ago" stay true. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
