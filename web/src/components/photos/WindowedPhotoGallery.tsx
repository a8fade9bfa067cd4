import { useCallback, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type RefObject } from 'react';
import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import { cn } from '../../lib/cn';
import { COLUMNS, tile, type GalleryColumns, type PhotoGalleryProps } from './PhotoGallery';

// Rows drawn beyond each edge of the viewport, so that Tab moving down (or up) the grid
// finds the next tile already there, and a fast scroll shows no blank.
const OVERSCAN_ROWS = 4;
// Tailwind's sm and lg are viewport media queries; the row's column count must follow the
// same ones as the grid's CSS classes, or a row would wrap.
const SM = '(min-width: 640px)';
const LG = '(min-width: 1024px)';

function mediaMatches(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => mediaMatches(query));
  useLayoutEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

/** Columns of the grid at this viewport width, as its CSS classes have them (COLUMNS). */
function galleryColumns(columns: GalleryColumns, sm: boolean, lg: boolean): number {
  if (!sm) return 2;
  return columns === 'responsive' && lg ? 4 : 3;
}

/**
 * Where the list starts on the page and how wide it is. The page scrolls, not the gallery,
 * and above it sit a filter bar and, when photos are grouped by milestone or visit, the
 * galleries of the groups before it: the virtualiser needs the offset (its scrollMargin).
 * Measured again whenever the window or anything on the page changes size.
 */
function useListBox(ref: RefObject<HTMLElement | null>) {
  const [box, setBox] = useState({ top: 0, width: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const top = rect.top + window.scrollY;
      setBox((prev) => (prev.top === top && prev.width === rect.width ? prev : { top, width: rect.width }));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [ref]);
  return box;
}

/**
 * Whether the list is within a viewport's height of the viewport. The virtualiser alone
 * would draw a gallery's first rows while it is far below the viewport, and its last rows
 * once scrolled past: with photos grouped (one gallery per milestone or visit) that is a
 * handful of rows for every group on the page. Without IntersectionObserver: always near.
 */
function useNearViewport(ref: RefObject<HTMLElement | null>) {
  const [near, setNear] = useState(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const rect = element.getBoundingClientRect();
    setNear(rect.bottom > -window.innerHeight && rect.top < 2 * window.innerHeight);
    const observer = new IntersectionObserver((entries) => setNear(entries[entries.length - 1]!.isIntersecting), {
      rootMargin: '100% 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return near;
}

/**
 * The gallery drawn by rows, only those near the viewport (plus OVERSCAN_ROWS each side).
 *
 * Structure: a `role="list"` div named "Photos" holds the rows; each row is a `<ul
 * role="none">` grid holding its tiles' `<li>`s. A `<ul>` may only contain `<li>`, so the
 * outer element cannot stay a `<ul>` with row wrappers in it; with a row as an `<li>` holding
 * a nested list, a screen reader would announce one list per row. Here the rows are
 * presentational and the tiles, with aria-posinset/aria-setsize, read as one list of N photos.
 */
export function WindowedPhotoGallery(props: PhotoGalleryProps) {
  const { photos, columns = 'responsive' } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const box = useListBox(listRef);
  const near = useNearViewport(listRef);
  const sm = useMediaQuery(SM);
  const lg = useMediaQuery(LG);

  const perRow = galleryColumns(columns, sm, lg);
  const gap = sm ? 16 : 12; // gap-3 sm:gap-4
  // Before the list is laid out (or while it is hidden) its width is 0: guess the window's,
  // never a row so thin that the "viewport" would take in thousands of rows.
  const width = box.width > 0 ? box.width : typeof window === 'undefined' ? 1024 : window.innerWidth;
  // Tiles are aspect 4:3 with the caption drawn over the photo (PhotoTile), so a row is as
  // tall as a tile; measureElement corrects what this estimate gets wrong.
  const rowEstimate = Math.max((((width - gap * (perRow - 1)) / perRow) * 3) / 4, 48);

  // The tile last focused keeps its row drawn after it scrolls away, so focus is not
  // dropped to the page, and a lightbox it opened can hand focus back to it on close.
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const focusedIndex = useMemo(() => (focusedId === null ? -1 : photos.findIndex((p) => p.id === focusedId)), [photos, focusedId]);
  const keptRow = focusedIndex < 0 ? -1 : Math.floor(focusedIndex / perRow);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const rows = near ? defaultRangeExtractor(range) : [];
      if (keptRow < 0 || keptRow >= range.count || rows.includes(keptRow)) return rows;
      return [...rows, keptRow].sort((a, b) => a - b); // in order, so Tab order is reading order
    },
    [near, keptRow],
  );

  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(photos.length / perRow),
    estimateSize: () => rowEstimate,
    gap,
    overscan: OVERSCAN_ROWS,
    scrollMargin: box.top,
    rangeExtractor,
    // A row that measures 0 (its list hidden) keeps the estimate: rows of height 0 would
    // all fit in the viewport and every photo would be drawn.
    measureElement: (element, entry) => {
      const height = entry?.borderBoxSize?.[0]?.blockSize ?? element.getBoundingClientRect().height;
      return height > 0 ? height : rowEstimate;
    },
  });
  // Rows measured at another width or column count are the wrong height now.
  useLayoutEffect(() => {
    virtualizer.measure();
  }, [virtualizer, perRow, rowEstimate]);

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const id = (event.target as Element).closest('[data-photo-id]')?.getAttribute('data-photo-id');
    if (id) setFocusedId(id);
  };

  return (
    <div ref={listRef} role="list" aria-label="Photos" onFocus={onFocus} className="relative" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => {
        const first = row.index * perRow;
        return (
          <ul
            key={row.key}
            role="none"
            data-index={row.index}
            ref={virtualizer.measureElement}
            className={cn('absolute inset-x-0 top-0 grid gap-3 sm:gap-4', COLUMNS[columns])}
            style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            {photos.slice(first, first + perRow).map((photo, i) => tile(props, photo, { index: first + i + 1, of: photos.length }))}
          </ul>
        );
      })}
    </div>
  );
}
