import type { Point, Shape } from '../../protocol/types';
import { pinNumbers } from '../../lib/markupGeometry';
import {
  arrowParts,
  COLOR_HEX,
  fontSize,
  HALO_STROKE,
  haloColor,
  HEAD_HALO_STROKE,
  MARKUP_FONT,
  MARKUP_FONT_WEIGHT,
  markupScale,
  PIN_BORDER,
  PIN_DIGIT_BASELINE,
  PIN_DIGIT_SIZE,
  pinBorder,
  pinDigitColor,
  pinRadius,
  strokeWidth,
  TEXT_HALO_STROKE,
  textBaseline,
  textLines,
} from '../../lib/markupStyle';

const round = { strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
const pointsAttr = (pts: Point[]) => pts.map((p) => `${p.x},${p.y}`).join(' ');

/**
 * One shape in the photo's pixels, halo first and the shape over it: the same drawing
 * the server flattens onto downloads (lib/markupStyle holds the shared numbers).
 */
export function MarkupShape({ shape, width: W, height: H, pinNumber }: { shape: Shape; width: number; height: number; pinNumber?: number }) {
  const S = markupScale(W, H);
  const color = COLOR_HEX[shape.color];
  const halo = haloColor(shape.color);
  const g = shape.geometry;
  const px = (p: Point): Point => ({ x: p.x * W, y: p.y * H });
  const w = strokeWidth(shape.width, S);
  const stroked = (draw: (stroke: string, sw: number) => React.ReactNode) => (
    <>
      {draw(halo, HALO_STROKE * w)}
      {draw(color, w)}
    </>
  );

  switch (g.kind) {
    case 'line': {
      const [a, b] = [px(g.from), px(g.to)];
      return stroked((stroke, sw) => <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={stroke} strokeWidth={sw} fill="none" {...round} />);
    }
    case 'rect': {
      const [a, b] = [px(g.from), px(g.to)];
      const box = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
      return stroked((stroke, sw) => <rect {...box} stroke={stroke} strokeWidth={sw} fill="none" {...round} />);
    }
    case 'ellipse': {
      const [a, b] = [px(g.from), px(g.to)];
      const e = { cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2, rx: Math.abs(b.x - a.x) / 2, ry: Math.abs(b.y - a.y) / 2 };
      return stroked((stroke, sw) => <ellipse {...e} stroke={stroke} strokeWidth={sw} fill="none" {...round} />);
    }
    case 'pen': {
      const pts = pointsAttr(g.points.map(px));
      return stroked((stroke, sw) => <polyline points={pts} stroke={stroke} strokeWidth={sw} fill="none" {...round} />);
    }
    case 'arrow': {
      const { shaft, head } = arrowParts(px(g.from), px(g.to), w);
      const tri = pointsAttr(head);
      return (
        <>
          {shaft && <line x1={shaft[0].x} y1={shaft[0].y} x2={shaft[1].x} y2={shaft[1].y} stroke={halo} strokeWidth={HALO_STROKE * w} {...round} />}
          <polygon points={tri} fill="none" stroke={halo} strokeWidth={HEAD_HALO_STROKE * w} {...round} />
          {shaft && <line x1={shaft[0].x} y1={shaft[0].y} x2={shaft[1].x} y2={shaft[1].y} stroke={color} strokeWidth={w} {...round} />}
          <polygon points={tri} fill={color} />
        </>
      );
    }
    case 'text': {
      const f = fontSize(shape.width, S);
      const at = px(g.at);
      return (
        <text
          fontFamily={MARKUP_FONT}
          fontWeight={MARKUP_FONT_WEIGHT}
          fontSize={f}
          textAnchor="start"
          fill={color}
          stroke={halo}
          strokeWidth={TEXT_HALO_STROKE * f}
          strokeLinejoin="round"
          paintOrder="stroke"
          style={{ whiteSpace: 'pre' }}
        >
          {textLines(g.text).map((line, i) => (
            <tspan key={i} x={at.x} y={textBaseline(g.at.y * H, f, i)}>
              {line}
            </tspan>
          ))}
        </text>
      );
    }
    case 'pin': {
      const r = pinRadius(shape.width, S);
      const c = px(g.at);
      return (
        <>
          <circle cx={c.x} cy={c.y} r={r} fill={color} stroke={pinBorder(shape.color)} strokeWidth={PIN_BORDER * r} />
          {pinNumber !== undefined && (
            <text
              x={c.x}
              y={c.y + PIN_DIGIT_BASELINE * r}
              fontFamily={MARKUP_FONT}
              fontWeight={MARKUP_FONT_WEIGHT}
              fontSize={PIN_DIGIT_SIZE * r}
              textAnchor="middle"
              fill={pinDigitColor(shape.color)}
            >
              {pinNumber}
            </text>
          )}
        </>
      );
    }
  }
}

/** Every shape, in drawing order (later on top), pins numbered 1, 2, 3 …. */
export function MarkupShapes({ shapes, width, height }: { shapes: readonly Shape[]; width: number; height: number }) {
  const numbers = pinNumbers(shapes);
  return (
    <>
      {shapes.map((shape) => (
        <g key={shape.id} data-shape-id={shape.id} data-kind={shape.geometry.kind} data-testid="markup-shape">
          <MarkupShape shape={shape} width={width} height={height} pinNumber={numbers.get(shape.id)} />
        </g>
      ))}
    </>
  );
}
