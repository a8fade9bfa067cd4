import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Markup, Shape } from '../../protocol/types';
import { photo, timelineEntry } from '../../testing/fixtures';
import { PhotoTile } from '../photos/PhotoTile';
import { TimelineFeed } from '../story/TimelineFeed';
import { MarkupOverlay } from './MarkupOverlay';
import { MarkupShapes } from './MarkupShapes';

// The overlay draws what the server flattens (lib/markupStyle): these read the numbers
// off the rendered SVG for a 1600 × 1200 photo (S = 1200).
const W = 1600;
const H = 1200;
const svg = (shapes: Shape[]) => renderToStaticMarkup(<svg>{<MarkupShapes shapes={shapes} width={W} height={H} />}</svg>);
const shape = (over: Partial<Shape> & Pick<Shape, 'geometry'>): Shape => ({ id: 's', color: 'red', width: 'medium', authorId: 'b1', ...over });

describe('MarkupShapes', () => {
  it('draws a line over its halo, 1.8 w wide, with round caps', () => {
    const html = svg([shape({ geometry: { kind: 'line', from: { x: 0.25, y: 0.5 }, to: { x: 0.75, y: 0.5 } } })]);
    expect(html).toContain('x1="400" y1="600" x2="1200" y2="600" stroke="rgba(0,0,0,0.5)" stroke-width="17.28"');
    expect(html).toContain('stroke="#E53935" stroke-width="9.6" fill="none" stroke-linecap="round" stroke-linejoin="round"');
    expect(html.indexOf('rgba(0,0,0,0.5)')).toBeLessThan(html.indexOf('#E53935'));
  });

  it('draws black on a light halo', () => {
    const html = svg([shape({ color: 'black', geometry: { kind: 'rect', from: { x: 0.5, y: 0.5 }, to: { x: 0.25, y: 0.25 } } })]);
    expect(html).toContain('x="400" y="300" width="400" height="300" stroke="rgba(255,255,255,0.6)"');
    expect(html).toContain('stroke="#212121"');
  });

  it('draws an arrow as a shaft and a filled head, the head haloed by a 0.8 w stroke', () => {
    const html = svg([shape({ width: 'thin', geometry: { kind: 'arrow', from: { x: 0, y: 0.5 }, to: { x: 0.5, y: 0.5 } } })]);
    // w = 4.8, head 21.6 long and 21.6 wide at its base.
    expect(html).toContain('points="800,600 778.4,610.8 778.4,589.2" fill="none" stroke="rgba(0,0,0,0.5)" stroke-width="3.84"');
    expect(html).toContain('points="800,600 778.4,610.8 778.4,589.2" fill="#E53935"');
    expect(html).toContain('x1="0" y1="600" x2="778.4" y2="600" stroke="#E53935"');
  });

  it('writes labels in DejaVu Sans bold, a line per row, haloed by paint order', () => {
    const html = svg([shape({ width: 'thick', geometry: { kind: 'text', at: { x: 0.1, y: 0.1 }, text: 'Move\noutlet' } })]);
    // f = 78: baselines at 120 + 72.54 and + 166.14.
    expect(html).toContain('font-family="DejaVu Sans" font-weight="700" font-size="78" text-anchor="start" fill="#E53935" stroke="rgba(0,0,0,0.5)" stroke-width="12.48" stroke-linejoin="round" paint-order="stroke"');
    expect(html).toMatch(/<tspan x="160" y="192\.54\d*">Move<\/tspan><tspan x="160" y="286.14">outlet<\/tspan>/);
  });

  it('numbers pins in order, dark digits on yellow, a dark border around white', () => {
    const pin = (id: string, color: Shape['color']): Shape => shape({ id, color, width: 'thin', geometry: { kind: 'pin', at: { x: 0.5, y: 0.5 }, note: 'Why?' } });
    const html = svg([pin('a', 'yellow'), shape({ id: 'l', geometry: { kind: 'line', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } } }), pin('b', 'white')]);
    expect(html).toContain('cx="800" cy="600" r="19.2" fill="#FDD835" stroke="#FFFFFF" stroke-width="3.456"');
    expect(html).toContain('x="800" y="607.68" font-family="DejaVu Sans" font-weight="700" font-size="21.12" text-anchor="middle" fill="#212121">1</text>');
    expect(html).toContain('fill="#FFFFFF" stroke="#212121"');
    expect(html).toContain('>2</text>');
    // The note is not drawn on the photo.
    expect(html).not.toContain('Why?');
  });
});

describe('MarkupOverlay', () => {
  const markup: Markup = {
    imageId: 'i1',
    projectId: 'p1',
    version: 3,
    shapes: [shape({ id: 'p', geometry: { kind: 'pin', at: { x: 0.2, y: 0.3 }, note: 'Is this the window?' }, authorId: 'h1' })],
    authors: [{ id: 'h1', email: 'jamie@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0, company: null }],
    updatedAt: 1,
    updatedBy: null,
  };
  it('lays an SVG in the photo coordinates over the box, and a button on each pin', () => {
    const html = renderToStaticMarkup(<MarkupOverlay markup={markup} width={W} height={H} />);
    expect(html).toContain('viewBox="0 0 1600 1200" preserveAspectRatio="none"');
    expect(html).toContain('aria-label="Pin 1: Is this the window?"');
    expect(html).toContain('left:20%;top:30%');
  });
});

describe('markup in the gallery and the timeline', () => {
  const noop = () => undefined;
  const tileHtml = (markupCount: number) =>
    renderToStaticMarkup(
      <PhotoTile
        photo={photo({ markupCount })}
        favourite={false}
        now={new Date(0)}
        click="open"
        canEdit={false}
        canDelete={false}
        entering={false}
        onOpen={noop}
        onToggleFavourite={noop}
        onEdit={noop}
        onDelete={noop}
      />,
    );

  it('a tile shows a badge with the shape count once the photo has markup', () => {
    expect(tileHtml(0)).not.toContain('markup-badge');
    expect(tileHtml(3)).toContain('aria-label="3 markup shapes"');
    expect(tileHtml(1)).toContain('aria-label="1 markup shape"');
  });

  it('the timeline says who marked up a photo, with its thumbnail', () => {
    const html = renderToStaticMarkup(
      <TimelineFeed
        entries={[timelineEntry({ actorName: 'Summit Homes', actorRole: 'builder', detail: { type: 'marked_up', photo: { id: 'i9', thumbUrl: '/media/images/i9/thumb' } } })]}
        hasMore={false}
        loading={false}
        onLoadMore={noop}
        onOpenPhoto={noop}
      />,
    );
    expect(html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toContain('Summit Homes (Builder) marked up a photo');
    expect(html).toContain('/media/images/i9/thumb');
  });
});
