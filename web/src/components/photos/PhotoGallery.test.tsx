// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectImage } from '../../protocol/types';
import { photo } from '../../testing/fixtures';
import { PhotoGallery, preloadWindowedGallery, type PhotoGalleryProps } from './PhotoGallery';
import { PhotoTile } from './PhotoTile';

// jsdom lays nothing out: the viewport, the list's place and width, and the media queries
// that Tailwind's sm/lg follow are given here; rows measure 0, so the gallery's own estimate
// of a row (a 4:3 tile) stands.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const LIST_TOP = 300; // the filter bar and heading above the gallery
const VIEWPORT_HEIGHT = 800;

let viewportWidth = 1280;
let listWidth = 1000;
let listTop = LIST_TOP;
const mediaListeners = new Set<{ query: string; listener: () => void }>();

function matchesQuery(query: string): boolean {
  const min = /min-width:\s*(\d+)px/.exec(query);
  if (!min) throw new Error(`unexpected media query ${query}`);
  return viewportWidth >= Number(min[1]);
}

function setWindow(key: 'innerWidth' | 'innerHeight' | 'scrollY', value: number) {
  Object.defineProperty(window, key, { configurable: true, writable: true, value });
}

/** The window becomes `width` wide: media queries whose answer changed tell their listeners. */
function resizeViewport(width: number) {
  const before = new Map([...mediaListeners].map((l) => [l, matchesQuery(l.query)]));
  viewportWidth = width;
  setWindow('innerWidth', width);
  for (const [entry, was] of before) if (matchesQuery(entry.query) !== was) entry.listener();
}

// The windowed gallery is a chunk of its own (docs/LIMITS.md, "First paint"): here it is
// fetched first, so a big gallery draws windowed at once, as it does once the page has it.
beforeAll(async () => {
  await preloadWindowedGallery();
});

beforeEach(() => {
  viewportWidth = 1280;
  listWidth = 1000;
  listTop = LIST_TOP;
  setWindow('innerWidth', viewportWidth);
  setWindow('innerHeight', VIEWPORT_HEIGHT);
  setWindow('scrollY', 0);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo; // jsdom has none; the virtualiser restores the offset on mount
  window.matchMedia = vi.fn((query: string) => ({
    get matches() {
      return matchesQuery(query);
    },
    media: query,
    onchange: null,
    addEventListener: (_type: string, listener: () => void) => void mediaListeners.add({ query, listener }),
    removeEventListener: (_type: string, listener: () => void) => {
      for (const entry of mediaListeners) if (entry.listener === listener) mediaListeners.delete(entry);
    },
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  // The list sits listTop below the top of the document, listWidth wide.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const isList = this.getAttribute('aria-label') === 'Photos';
    const top = isList ? listTop - window.scrollY : 0;
    const width = isList ? listWidth : 0;
    return { x: 0, y: top, top, left: 0, right: width, bottom: top, width, height: 0, toJSON: () => ({}) } as DOMRect;
  });
});

let root: Root | null = null;
let host: HTMLDivElement | null = null;

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  host = null;
  mediaListeners.clear();
  vi.restoreAllMocks();
  delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
});

const photos = (n: number) => Array.from({ length: n }, (_, i) => photo({ id: `p${i}`, caption: `Photo ${i}` }));

const baseProps = (list: ProjectImage[]): PhotoGalleryProps => ({
  photos: list,
  favourites: {},
  now: new Date('2026-06-01T12:00:00Z'),
  click: 'open',
  canEdit: true,
  canDelete: true,
  isEntering: () => false,
  onOpen: () => undefined,
  onToggleFavourite: () => undefined,
  onEdit: () => undefined,
  onDelete: () => undefined,
});

function render(props: PhotoGalleryProps) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(<PhotoGallery {...props} />));
  return host;
}

const tiles = () => [...document.querySelectorAll<HTMLElement>('[data-testid="photo-tile"]')];
const tileIds = () => tiles().map((t) => t.dataset.photoId);
const rows = () => [...document.querySelectorAll<HTMLElement>('[aria-label="Photos"] > ul')];

function scrollTo(y: number) {
  act(() => {
    setWindow('scrollY', y);
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('PhotoGallery, a small project', () => {
  it('draws every photo in the plain grid it always had', () => {
    const list = photos(30);
    const html = render(baseProps(list)).innerHTML;
    expect(tiles()).toHaveLength(30);

    // The same photos as PhotoTiles straight in the grid, as the gallery drew them all along.
    const reference = document.createElement('div');
    const referenceRoot = createRoot(reference);
    act(() =>
      referenceRoot.render(
        <ul aria-label="Photos" className="grid gap-3 sm:gap-4 grid-cols-2 sm:grid-cols-3 lg:grid-cols-4">
          {list.map((p) => (
            <PhotoTile
              key={p.id}
              photo={p}
              favourite={false}
              now={new Date('2026-06-01T12:00:00Z')}
              click="open"
              canEdit
              canDelete
              entering={false}
              onOpen={() => undefined}
              onToggleFavourite={() => undefined}
              onEdit={() => undefined}
              onDelete={() => undefined}
            />
          ))}
        </ul>,
      ),
    );
    const plain = reference.innerHTML;
    act(() => referenceRoot.unmount());
    expect(html).toBe(plain);
    expect(html).not.toContain('aria-setsize');
  });

  it('keeps the plain grid up to 120 photos and windows from 121', () => {
    render(baseProps(photos(120)));
    expect(tiles()).toHaveLength(120);
    expect(document.querySelector('ul[aria-label="Photos"]')).not.toBeNull();
    act(() => root!.render(<PhotoGallery {...baseProps(photos(121))} />));
    expect(document.querySelector('ul[aria-label="Photos"]')).toBeNull();
    expect(document.querySelector('[role="list"][aria-label="Photos"]')).not.toBeNull();
  });
});

describe('PhotoGallery, a big project', () => {
  // 1,000 px wide, 4 columns, 16 px gaps: a tile is 238 px wide, so 178.5 px tall.
  const ROW = 178.5;
  const GAP = 16;

  it('draws only the rows near the viewport, of 5,000 photos', () => {
    render(baseProps(photos(5000)));
    const drawn = tiles();
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(150);
    // Whole rows of 4, from the first photo, in order.
    expect(drawn.length % 4).toBe(0);
    expect(tileIds().slice(0, 5)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    // The viewport shows rows 0–2 (the list starts 300 px down), and 4 more are drawn below.
    expect(rows()).toHaveLength(7);
    // The list keeps the height of all 1,250 rows, so the page scrolls as far as before.
    const list = document.querySelector<HTMLElement>('[role="list"][aria-label="Photos"]')!;
    expect(parseFloat(list.style.height)).toBeCloseTo(1250 * ROW + 1249 * GAP, 1);
  });

  it('tells a screen reader where each tile stands among all the photos', () => {
    render(baseProps(photos(5000)));
    const first = tiles()[0]!;
    expect(first.getAttribute('aria-posinset')).toBe('1');
    expect(first.getAttribute('aria-setsize')).toBe('5000');
    expect(first.parentElement!.getAttribute('role')).toBe('none');
    expect(first.parentElement!.tagName).toBe('UL');
  });

  it('draws the rows under the viewport as the page scrolls, placed where they belong', () => {
    render(baseProps(photos(5000)));
    // Scroll so that row 1,000 is at the top of the viewport.
    scrollTo(LIST_TOP + 1000 * (ROW + GAP));
    const ids = tileIds();
    expect(ids).not.toContain('p0');
    expect(ids).toContain('p4000');
    expect(ids.length).toBeLessThan(150);
    // Rows 1,000–1,004 fill the 800 px viewport; 4 more are drawn on each side. (Had the
    // gallery not counted the 300 px above it, it would be a row further on.)
    expect(rows().map((r) => Number(r.dataset.index))).toEqual(Array.from({ length: 13 }, (_, i) => 996 + i));
    const row = document.querySelector<HTMLElement>('[aria-label="Photos"] > ul[data-index="1000"]')!;
    expect(row.style.transform).toBe(`translateY(${1000 * (ROW + GAP)}px)`);
    expect(row.querySelector('li')!.getAttribute('aria-posinset')).toBe('4001');
  });

  it('keeps the focused tile drawn when it scrolls far away', () => {
    render(baseProps(photos(5000)));
    const button = document.querySelector<HTMLButtonElement>('[data-photo-id="p5"] button')!;
    act(() => button.focus());
    expect(document.activeElement).toBe(button);

    scrollTo(LIST_TOP + 1000 * (ROW + GAP));
    expect(button.isConnected).toBe(true);
    expect(document.activeElement).toBe(button);
    // Only the focused tile's row stays: its neighbours above and below are gone.
    expect(tileIds()).toEqual(expect.arrayContaining(['p4', 'p5', 'p6', 'p7', 'p4000']));
    expect(tileIds()).not.toContain('p0');
    expect(tileIds()).not.toContain('p8');
    // And it comes first, in reading (and Tab) order.
    expect(tileIds()[0]).toBe('p4');
  });

  it('draws no rows while the gallery is far from the viewport, as under another big group', () => {
    const observers: { callback: IntersectionObserverCallback; options?: IntersectionObserverInit }[] = [];
    window.IntersectionObserver = class {
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        observers.push({ callback, options });
      }
      observe() {}
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
    const near = (isIntersecting: boolean) =>
      act(() => observers[0]!.callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver));

    listTop = 5000; // more than a viewport below the viewport's bottom edge
    render(baseProps(photos(5000)));
    expect(observers).toHaveLength(1);
    expect(observers[0]!.options?.rootMargin).toBe('100% 0px');
    expect(tiles()).toHaveLength(0);
    const list = document.querySelector<HTMLElement>('[role="list"][aria-label="Photos"]')!;
    expect(parseFloat(list.style.height)).toBeCloseTo(1250 * ROW + 1249 * GAP, 1);

    near(true);
    expect(tileIds().slice(0, 4)).toEqual(['p0', 'p1', 'p2', 'p3']);
    const button = document.querySelector<HTMLButtonElement>('[data-photo-id="p1"] button')!;
    act(() => button.focus());
    near(false);
    // Gone but for the focused tile's row.
    expect(tileIds()).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(document.activeElement).toBe(button);
  });

  it.each([
    ['responsive', 1280, 4],
    ['responsive', 800, 3],
    ['responsive', 500, 2],
    ['three', 1280, 3],
    ['three', 500, 2],
  ] as const)('puts as many photos in a row as the grid has columns (%s at %i px: %i)', (columns, width, perRow) => {
    viewportWidth = width;
    setWindow('innerWidth', width);
    render({ ...baseProps(photos(500)), columns });
    const drawn = rows();
    expect(drawn.length).toBeGreaterThan(1);
    for (const row of drawn) expect(row.querySelectorAll('[data-testid="photo-tile"]')).toHaveLength(perRow);
    expect(drawn[0]!.className).toContain(columns === 'three' ? 'grid-cols-2 sm:grid-cols-3' : 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4');
    expect(drawn[1]!.querySelector('li')!.dataset.photoId).toBe(`p${perRow}`);
  });

  it('follows the window across a breakpoint', () => {
    render(baseProps(photos(500)));
    expect(rows()[0]!.querySelectorAll('li')).toHaveLength(4);
    act(() => resizeViewport(500));
    expect(rows()[0]!.querySelectorAll('li')).toHaveLength(2);
    expect(rows()[1]!.querySelector('li')!.dataset.photoId).toBe('p2');
  });
});
