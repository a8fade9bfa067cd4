// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientMsg, ProjectImage } from '../../protocol/types';
import type { DateFilter } from '../../lib/photoFilters';
import { useAppStore } from '../../store';
import { requests } from '../../sync/requests';
import { photo } from '../../testing/fixtures';
import { PhotoBrowser, type GalleryRole } from './PhotoBrowser';
import type { PhotoFilters } from './usePhotos';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const HOUR = 3_600_000;
const on = (id: string, year: number, month: number, day: number) =>
  photo({ id, caption: id, takenAt: Date.UTC(year, month, day, 12), createdAt: Date.UTC(year, month, day, 12) + HOUR });

const role: GalleryRole = { click: 'favourite', canEdit: false, canDelete: false, canPickThumbnail: false, columns: 'responsive', emptyText: 'standard' };

let host: HTMLDivElement;
let root: Root | null = null;
let sent: ClientMsg[] = [];

function filters(date: DateFilter, favouritesOnly = false): PhotoFilters {
  return { now: new Date(Date.UTC(2026, 5, 25)), date, setDate: () => undefined, favouritesOnly, setFavouritesOnly: () => undefined, reset: () => undefined };
}

function render(date: DateFilter, favouritesOnly = false) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() =>
    root!.render(
      <MemoryRouter>
        <PhotoBrowser projectId="p1" filters={filters(date, favouritesOnly)} role={role} />
      </MemoryRouter>,
    ),
  );
}

/** A big project open on its first page (June 2026), the older pages still being read. */
function openBig(firstPage: ProjectImage[] = [on('n1', 2026, 5, 20), on('n2', 2026, 5, 10)]) {
  const s = useAppStore.getState();
  s.photosOpened('p1');
  s.photosListed('p1', firstPage, [], { newest: Infinity, next: 'c1' });
  s.photoPagingChanged('p1', { total: 5_000, next: 'c1', loading: true });
}

const byTestId = (id: string) => host.querySelector(`[data-testid="${id}"]`);
const tiles = () => [...host.querySelectorAll('[data-testid="photo-tile"]')].map((t) => t.getAttribute('data-photo-id'));
const windowPage = () => [...sent].reverse().find((m) => m.request.type === 'list_photos' && 'limit' in m.request)!;
const answer = async (msg: ClientMsg, photos: ProjectImage[], next: string | null, favourites: string[] = []) => {
  await act(async () => {
    requests.reply(msg.id, { type: 'photos', projectId: 'p1', photos, favourites, next });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
};

beforeEach(() => {
  sent = [];
  requests.attach((msg) => sent.push(msg));
  window.matchMedia = vi.fn((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host.remove();
  requests.attach(null);
  useAppStore.getState().photosCleared();
});

describe('a month the background read has not reached', () => {
  it('says it is loading it, never "No photos", and shows its photos as its pages arrive', async () => {
    openBig();
    render({ year: 2025, month: 2 });
    expect(byTestId('photo-window-loading')?.textContent).toBe('Loading photos from March 2025…');
    expect(host.textContent).not.toContain('No photos found');
    expect(windowPage().request).toMatchObject({ type: 'list_photos', projectId: 'p1', limit: 60 });

    await answer(windowPage(), [on('m31', 2025, 2, 31), on('m20', 2025, 2, 20)], 'w1');
    expect(tiles()).toEqual(['m31', 'm20']);
    expect(byTestId('photo-window-loading')?.textContent).toBe('Loading more photos from March 2025…');

    await answer(windowPage(), [on('m02', 2025, 2, 2), on('f27', 2025, 1, 27)], 'w2');
    expect(tiles()).toEqual(['m31', 'm20', 'm02']);
    expect(byTestId('photo-window-loading')).toBeNull();
    // The background read's own line keeps saying how far it is.
    expect(byTestId('photo-paging')?.textContent).toContain('Loading older photos…');
  });

  it('a month with no photos says so once it is read', async () => {
    openBig();
    render({ year: 2025, month: 2 });
    await answer(windowPage(), [on('f27', 2025, 1, 27)], 'w1');
    expect(byTestId('photo-window-loading')).toBeNull();
    expect(host.textContent).toContain('No photos found');
  });

  it('a failure offers Retry, which goes on from where it stopped', async () => {
    vi.useFakeTimers();
    try {
      openBig();
      render({ year: 2025, month: 2 });
      await act(async () => {
        requests.fail(windowPage().id, { code: 'forbidden', message: 'No' });
        await vi.advanceTimersByTimeAsync(0);
      });
      const alert = byTestId('photo-window-failed');
      expect(alert?.textContent).toContain('Photos from March 2025 could not be loaded.');
      const before = sent.length;
      await act(async () => {
        alert!.querySelector('button')!.click();
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(sent.length).toBe(before + 1);
      expect(byTestId('photo-window-loading')).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('favourites of a big project', () => {
  it('while pages are still coming, the count is "at least" and an empty list is still looking', async () => {
    openBig();
    render({ year: 2026, month: 5 }, true);
    expect(byTestId('favourite-count')?.textContent).toBe('0+');
    expect(byTestId('photo-still-loading')?.textContent).toContain('Looking for your favorites');
    expect(host.textContent).not.toContain("You haven't favorited");
    // Favorites ignore the dates: no window is read for them.
    expect(sent.filter((m) => m.request.type === 'list_photos')).toHaveLength(0);

    await act(async () => {
      const s = useAppStore.getState();
      s.photosListed('p1', [on('o1', 2025, 1, 1)], ['o1'], { newest: Infinity, next: 'c2' });
    });
    expect(byTestId('favourite-count')?.textContent).toBe('1+');
    expect(tiles()).toEqual(['o1']);
    expect(byTestId('photo-favourites-partial')).not.toBeNull();

    await act(async () => {
      const s = useAppStore.getState();
      s.photosListed('p1', [on('o2', 2024, 1, 1)], [], { newest: Infinity, next: null });
      s.photoPagingChanged('p1', { next: null, loading: false });
    });
    expect(byTestId('favourite-count')?.textContent).toBe('1');
    expect(byTestId('photo-favourites-partial')).toBeNull();
  });
});
