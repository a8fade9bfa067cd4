import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { ChevronsLeftRight } from 'lucide-react';
import type { ProjectImage } from '../../protocol/types';
import {
  beforeClipPath,
  dividerFromKey,
  dividerFromPointer,
  dividerValueNow,
  dividerValueText,
  DIVIDER_MAX,
  DIVIDER_MIN,
  fitContain,
} from '../../lib/compareDivider';
import { cn } from '../../lib/cn';
import { PhotoImage } from '../photos/PhotoImage';
import { SideLabel } from './SideLabel';
import type { MarkupSource } from '../markup/markupSources';
import { PhotoMarkup } from '../markup/PhotoMarkup';
import { useBoxSize } from './useBoxSize';

/** Half the handle's width: it stays whole on screen with the divider at either edge. */
const HANDLE_HALF_PX = 22;
/** A side's label hides once the divider covers most of its photo. */
const LABEL_HIDE_AT = 12;

/** Where a photo drawn with object-cover into `box` lands: centred, cropped by the box. */
function coverBox(box: { width: number; height: number }, photo: ProjectImage) {
  const scale = Math.max(box.width / photo.width, box.height / photo.height) || 0;
  const width = photo.width * scale;
  const height = photo.height * scale;
  return { width, height, left: (box.width - width) / 2, top: (box.height - height) / 2 };
}

/**
 * The two photos laid over each other: "after" whole underneath, "before" shown left of
 * a divider that follows a mouse, a finger (pointer events, with touch-action off so
 * the page does not scroll instead) or the keyboard (the handle is a WAI-ARIA slider).
 */
export function CompareSlider({
  before,
  after,
  value,
  onChange,
  markup,
}: {
  before: ProjectImage;
  after: ProjectImage;
  value: number;
  onChange: (value: number) => void;
  /** Each side's markup over its photo. */
  markup?: MarkupSource;
}) {
  const [outer, space] = useBoxSize<HTMLDivElement>();
  const area = useRef<HTMLDivElement>(null);
  const handle = useRef<HTMLDivElement>(null);
  const dragging = useRef<number | null>(null);
  // The area takes the "before" photo's shape; "after" covers it, so the two line up.
  const box = fitContain(space.width, space.height, before.width / before.height);

  const follow = (clientX: number) => {
    const rect = area.current?.getBoundingClientRect();
    if (rect) onChange(dividerFromPointer(clientX, rect));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    e.preventDefault();
    dragging.current = e.pointerId;
    e.currentTarget.setPointerCapture(e.pointerId);
    handle.current?.focus({ preventScroll: true });
    follow(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current === e.pointerId) follow(e.clientX);
  };
  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current !== e.pointerId) return;
    dragging.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = dividerFromKey(value, e.key, e.shiftKey);
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    onChange(next);
  };

  return (
    <div ref={outer} className="flex size-full min-h-0 items-center justify-center">
      <div
        ref={area}
        data-testid="compare-slider"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        style={{ width: box.width, height: box.height }}
        className="relative cursor-ew-resize touch-none overflow-hidden rounded-lg bg-slate-900 select-none"
      >
        <PhotoImage key={after.id} src={after.displayUrl} alt={after.caption ?? 'After'} eager className="absolute inset-0 size-full object-cover" />
        {markup && (
          // "After" covers the area (object-cover): its markup follows the covered box.
          <div className="pointer-events-none absolute" style={coverBox(box, after)}>
            <PhotoMarkup photo={after} source={markup} />
          </div>
        )}
        <div className="absolute inset-0" style={{ clipPath: beforeClipPath(value) }} data-testid="compare-before-layer">
          <PhotoImage key={before.id} src={before.displayUrl} alt={before.caption ?? 'Before'} eager className="absolute inset-0 size-full object-cover" />
          {markup && <PhotoMarkup photo={before} source={markup} />}
        </div>
        <SideLabel side="before" className={cn('absolute top-3 left-3 transition-opacity', value < LABEL_HIDE_AT && 'opacity-0')} />
        <SideLabel side="after" className={cn('absolute top-3 right-3 transition-opacity', value > 100 - LABEL_HIDE_AT && 'opacity-0')} />
        <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgba(15,23,42,0.35)]" style={{ left: `${value}%` }} />
        <div
          ref={handle}
          role="slider"
          tabIndex={0}
          aria-label="Divider between before and after"
          aria-orientation="horizontal"
          aria-valuemin={DIVIDER_MIN}
          aria-valuemax={DIVIDER_MAX}
          aria-valuenow={dividerValueNow(value)}
          aria-valuetext={dividerValueText(value)}
          onKeyDown={onKeyDown}
          data-testid="compare-divider"
          style={{ left: `clamp(${HANDLE_HALF_PX}px, ${value}%, calc(100% - ${HANDLE_HALF_PX}px))` }}
          className="absolute top-1/2 flex size-11 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-white text-slate-900 shadow-lg ring-1 ring-slate-900/10 transition-shadow focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-400"
        >
          <ChevronsLeftRight className="size-5" aria-hidden="true" />
        </div>
      </div>
    </div>
  );
}
