/**
 * Web Locks (navigator.locks), shared by this origin's windows and its service worker:
 * who holds a lock's name decides who does the work it guards.
 */

/**
 * Asks for the lock `name`, waiting while someone else holds it; `granted` runs once it
 * is ours and receives the function that gives it back. Where Web Locks are missing
 * (browsers before 2022) it is granted at once: nothing else sends there (the service
 * worker sends only under a lock).
 */
export function holdLock(name: string, granted: (release: () => void) => void): void {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) {
    granted(() => undefined);
    return;
  }
  void locks.request(name, () => new Promise<void>((release) => granted(() => release())));
}
