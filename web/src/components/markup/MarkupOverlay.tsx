import { useState } from 'react';
import type { Markup } from '../../protocol/types';
import { byline, displayName } from '../../lib/names';
import { pinNumbers } from '../../lib/markupGeometry';
import { MarkupShapes } from './MarkupShapes';

/** What a pin's popover says about who placed it. */
function authorName(markup: Markup, authorId: string): string | null {
  const author = markup.authors.find((a) => a.id === authorId);
  return author ? byline(displayName(author), author.company) : null;
}

/**
 * A photo's markup, read only, laid exactly over the photo's box: an SVG in the photo's
 * own pixels (stretched with the box, which has the photo's shape), and a button on each
 * pin that shows its note when clicked or focused.
 */
export function MarkupOverlay({
  markup,
  width,
  height,
  interactivePins = true,
}: {
  markup: Markup;
  /** The photo's size (ProjectImage width and height): the overlay's coordinate space. */
  width: number;
  height: number;
  /** False where pins are only pictures (the compare slider, a small preview). */
  interactivePins?: boolean;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const numbers = pinNumbers(markup.shapes);
  const pins = markup.shapes.filter((s) => s.geometry.kind === 'pin');
  return (
    <>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        className="pointer-events-none absolute inset-0 size-full"
        data-testid="markup-overlay"
        data-version={markup.version}
        aria-hidden="true"
      >
        <MarkupShapes shapes={markup.shapes} width={width} height={height} />
      </svg>
      {interactivePins &&
        pins.map((pin) => {
          if (pin.geometry.kind !== 'pin') return null;
          const n = numbers.get(pin.id) ?? 0;
          const { at, note } = pin.geometry;
          const by = authorName(markup, pin.authorId);
          const shown = open === pin.id;
          const below = at.y < 0.5;
          const alignRight = at.x > 0.6;
          return (
            <div key={pin.id} className="absolute" style={{ left: `${at.x * 100}%`, top: `${at.y * 100}%` }}>
              <button
                type="button"
                aria-label={`Pin ${n}${note ? `: ${note}` : ''}`}
                aria-expanded={shown}
                data-testid="markup-pin"
                // Focus opens it too, so a click that focused the pin must not close it again.
                onClick={() => setOpen(pin.id)}
                onFocus={() => setOpen(pin.id)}
                onBlur={() => setOpen((o) => (o === pin.id ? null : o))}
                className="absolute size-8 -translate-x-1/2 -translate-y-1/2 rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900"
              />
              {shown && (
                <div
                  role="note"
                  data-testid="markup-pin-note"
                  className={
                    'absolute z-20 w-64 max-w-[70vw] rounded-lg bg-white p-3 text-left text-sm text-slate-800 shadow-xl ring-1 ring-slate-900/10 ' +
                    (below ? 'top-5 ' : 'bottom-5 ') +
                    (alignRight ? 'right-0' : 'left-0')
                  }
                >
                  <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Pin {n}</p>
                  <p className="mt-1 break-words whitespace-pre-wrap">{note || <span className="text-slate-500 italic">No note</span>}</p>
                  {by && <p className="mt-1.5 text-xs text-slate-600">by {by}</p>}
                </div>
              )}
            </div>
          );
        })}
    </>
  );
}
