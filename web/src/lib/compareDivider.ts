/**
 * The before/after slider's divider: where it sits, as a percentage of the compared
 * area's width from the left edge (0: all "after", 100: all "before"). Pointer, touch
 * and keyboard all end up here, so the view only renders what these return.
 */
export const DIVIDER_MIN = 0;
export const DIVIDER_MAX = 100;
/** Half and half: where a new comparison starts. */
export const DIVIDER_START = 50;
/** One arrow-key press moves the divider this many percent; Shift or Page Up/Down ten times as far. */
export const DIVIDER_STEP = 1;
export const DIVIDER_PAGE_STEP = 10;

/** Keeps a divider position inside the picture; anything unreadable starts in the middle. */
export function clampDivider(value: number): number {
  if (!Number.isFinite(value)) return DIVIDER_START;
  return Math.min(DIVIDER_MAX, Math.max(DIVIDER_MIN, value));
}

/**
 * The divider under a pointer or finger at `clientX`, for a compared area at `rect`
 * (its bounding box). Past either edge it stops at the edge; an area with no width yet
 * (not laid out) keeps the middle.
 */
export function dividerFromPointer(clientX: number, rect: { left: number; width: number }): number {
  if (!(rect.width > 0)) return DIVIDER_START;
  return clampDivider(((clientX - rect.left) / rect.width) * 100);
}

/**
 * The divider after a key press on the slider (WAI-ARIA slider pattern): arrows step,
 * Shift+arrow and Page Up/Down step ten times as far, Home and End go to the edges.
 * Right and Up move it right. Returns null for keys the slider does not handle, so
 * they keep their usual meaning (Tab, Escape, …).
 */
export function dividerFromKey(value: number, key: string, shiftKey = false): number | null {
  const step = shiftKey ? DIVIDER_PAGE_STEP : DIVIDER_STEP;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clampDivider(value + step);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampDivider(value - step);
    case 'PageUp':
      return clampDivider(value + DIVIDER_PAGE_STEP);
    case 'PageDown':
      return clampDivider(value - DIVIDER_PAGE_STEP);
    case 'Home':
      return DIVIDER_MIN;
    case 'End':
      return DIVIDER_MAX;
    default:
      return null;
  }
}

/** The whole percent announced as the slider's value (aria-valuenow). */
export function dividerValueNow(value: number): number {
  return Math.round(clampDivider(value));
}

/**
 * The CSS clip-path that shows the "before" photo left of the divider only; the
 * "after" photo lies whole underneath.
 */
export function beforeClipPath(value: number): string {
  const hidden = DIVIDER_MAX - clampDivider(value);
  return `inset(0 ${hidden}% 0 0)`;
}

/** What a screen reader hears for the slider's position. */
export function dividerValueText(value: number): string {
  const before = dividerValueNow(value);
  if (before === DIVIDER_MAX) return 'All before';
  if (before === DIVIDER_MIN) return 'All after';
  return `${before}% before, ${DIVIDER_MAX - before}% after`;
}

/**
 * The largest box of `aspect` (width / height) that fits inside `width` × `height`:
 * the slider's area is exactly the photo, so the divider never runs over letterboxing.
 */
export function fitContain(width: number, height: number, aspect: number): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) return { width: 0, height: 0 };
  if (!(aspect > 0) || !Number.isFinite(aspect)) return { width, height };
  return width / height > aspect ? { width: Math.round(height * aspect), height } : { width, height: Math.round(width / aspect) };
}
