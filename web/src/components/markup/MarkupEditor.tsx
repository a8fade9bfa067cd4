import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import {
  ArrowUpRight,
  Check,
  Circle,
  MapPin,
  MousePointer2,
  Pencil,
  Redo2,
  Slash,
  Square,
  Trash2,
  Type,
  Undo2,
} from 'lucide-react';
import type { Geometry, Markup, MarkupColor, Point, Shape, StrokeWidth } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { MARKUP_MAX_LABEL, MARKUP_MAX_NOTE } from '../../lib/limits';
import {
  addPenPoint,
  clampPoint,
  hitTest,
  isDegenerate,
  moveShape,
  pinNumbers,
  resizeShape,
  shapeBounds,
  shapeHandles,
  type HandleId,
} from '../../lib/markupGeometry';
import { canRedo, canUndo, historyKey, historyPush, historyRedo, historyStart, historyUndo, type MarkupHistory } from '../../lib/markupHistory';
import { addProblem, canChangeShape, labelProblem, markupLimitProblem, penBudget, toolsFor, type MarkupAccess, type MarkupTool } from '../../lib/markupRules';
import { COLOR_HEX, COLOR_LABELS, MARKUP_COLORS, STROKE_WIDTHS, WIDTH_LABELS } from '../../lib/markupStyle';
import { RequestError } from '../../sync/requests';
import { MarkupShapes } from './MarkupShapes';
import type { MarkupSource } from './markupSources';

/** Finished changes wait this long for the next one before they are saved (one save per burst). */
const SAVE_DEBOUNCE_MS = 400;
/** How far (screen pixels) from a shape a tap still picks it: a fingertip's width. */
const HIT_TOLERANCE_PX = 12;
/** One arrow-key press moves the selected shape this much of the photo; Shift ten times as far. */
const NUDGE = 0.005;
export const CONFLICT_MESSAGE = 'Someone else changed this markup just now. Showing the latest; draw again if needed.';

const TOOL_META: Record<MarkupTool, { label: string; icon: typeof Pencil }> = {
  select: { label: 'Select', icon: MousePointer2 },
  arrow: { label: 'Arrow', icon: ArrowUpRight },
  line: { label: 'Line', icon: Slash },
  rect: { label: 'Rectangle', icon: Square },
  ellipse: { label: 'Ellipse', icon: Circle },
  pen: { label: 'Pen', icon: Pencil },
  text: { label: 'Text', icon: Type },
  pin: { label: 'Pin', icon: MapPin },
};

type Gesture =
  | { kind: 'draw'; pointerId: number; shape: Shape }
  | { kind: 'move'; pointerId: number; id: string; start: Point; original: Shape; moved: boolean }
  | { kind: 'resize'; pointerId: number; id: string; handle: HandleId; original: Shape };

/** The label or note being typed: for a new shape at `at`, or for the shape `id`. */
type Entry = { kind: 'text' | 'pin'; at: Point; id: string | null; value: string };

const newId = () => crypto.randomUUID();

const toolButton =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-white/85 transition hover:bg-white/15 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-40 disabled:pointer-events-none aria-pressed:bg-white aria-pressed:text-slate-900';

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);

/**
 * The markup editor over one photo (docs/FEATURES.md, "Markup on photos"): a toolbar and
 * a drawing surface over the photo's box. Every finished gesture is one undo step and is
 * saved (debounced) as the whole shape list over the version it started from; someone
 * else's newer version is adopted while nothing of ours is unsaved, and a save that lost
 * the race shows theirs.
 */
export function MarkupEditor({
  doc,
  photoWidth: W,
  photoHeight: H,
  boxWidth,
  access,
  myId,
  source,
  imageId,
  onDone,
  children,
  toolbarClassName,
}: {
  doc: Markup;
  photoWidth: number;
  photoHeight: number;
  /** The photo's width on screen (hit tolerance and handle sizes are in screen pixels). */
  boxWidth: number;
  access: MarkupAccess;
  myId: string | undefined;
  source: MarkupSource;
  imageId: string;
  onDone: () => void;
  /** Renders the toolbar into the caller's place and the surface over `children` (the photo). */
  children: (parts: { toolbar: ReactNode; surface: ReactNode }) => ReactNode;
  toolbarClassName?: string;
}) {
  const tools = toolsFor(access);
  const [tool, setTool] = useState<MarkupTool>(tools.includes('arrow') ? 'arrow' : tools[0] ?? 'pin');
  const [color, setColor] = useState<MarkupColor>('red');
  const [width, setWidth] = useState<StrokeWidth>('medium');
  const [history, setHistory] = useState<MarkupHistory>(() => historyStart(doc.shapes));
  const [live, setLiveState] = useState<Shape[] | null>(null);
  // What the gesture shows, read at pointerup (state may not have re-rendered yet).
  const liveRef = useRef<Shape[] | null>(null);
  const setLive = (next: Shape[] | null) => {
    liveRef.current = next;
    setLiveState(next);
  };
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [entry, setEntry] = useState<Entry | null>(null);
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // Changes not yet stored (waiting for the debounce, or in flight): shown to tests and
  // assistive tech as the surface's `data-pending`.
  const [pending, setPending] = useState(false);

  // Mutable truths the async save and the pointer handlers read without stale closures.
  const historyRef = useRef(history);
  historyRef.current = history;
  const base = useRef(doc.version);
  const dirty = useRef(false);
  const inFlight = useRef(false);
  const gesture = useRef<Gesture | null>(null);
  const timer = useRef<number | null>(null);
  const surfaceRef = useRef<SVGSVGElement>(null);
  const entryId = useId();

  const shapes = live ?? history.present;
  const mine = useCallback((s: Shape) => canChangeShape(access, myId, s) || (access === 'own-pins' && s.geometry.kind === 'pin' && s.authorId === ''), [access, myId]);
  const selected = selectedId ? shapes.find((s) => s.id === selectedId) ?? null : null;

  const flush = useCallback(async () => {
    if (timer.current !== null) {
      window.clearTimeout(timer.current);
      timer.current = null;
    }
    if (inFlight.current || gesture.current || !dirty.current || !source.save) return;
    inFlight.current = true;
    setSaving(true);
    const sent = historyRef.current.present;
    try {
      const saved = await source.save(imageId, base.current, sent);
      base.current = saved.version;
      if (historyRef.current.present === sent) {
        dirty.current = false;
        setPending(false);
        // The server stamped the authors of the shapes drawn here: hold its copy.
        setHistory((h) => (h.present === sent ? { ...h, present: saved.shapes } : h));
      }
    } catch (err) {
      dirty.current = false;
      setPending(false);
      if (err instanceof RequestError && err.code === 'conflict') {
        setMessage({ tone: 'info', text: CONFLICT_MESSAGE });
        try {
          const latest = await source.reload?.(imageId);
          if (latest) {
            base.current = latest.version;
            setHistory(historyStart(latest.shapes));
            setSelectedId(null);
          }
        } catch {
          // The next markup_changed brings it.
        }
      } else {
        // Validation, forbidden, or no answer: what is on screen goes back to the stored copy.
        const text = err instanceof RequestError && err.fromServer ? err.message : "Couldn't save the markup. Check your connection and try again.";
        setMessage({ tone: 'error', text });
        setHistory(historyStart(doc.shapes));
        base.current = doc.version;
        if (err instanceof RequestError && err.code === 'forbidden') onDone();
      }
    } finally {
      inFlight.current = false;
      setSaving(false);
      if (dirty.current) schedule();
    }
  }, [doc, imageId, onDone, source]);

  const schedule = useCallback(() => {
    setPending(true);
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flush(), SAVE_DEBOUNCE_MS);
  }, [flush]);

  /** A finished change: one undo step, saved soon. */
  const commit = useCallback(
    (next: Shape[]) => {
      const problem = markupLimitProblem(next);
      if (problem) {
        setMessage({ tone: 'error', text: problem });
        return false;
      }
      setHistory((h) => historyPush(h, next));
      historyRef.current = historyPush(historyRef.current, next);
      dirty.current = true;
      schedule();
      return true;
    },
    [schedule],
  );

  // Someone else's newer version: adopted while nothing of ours waits to be saved and no
  // gesture is under way; otherwise ours stays and its save meets `conflict`.
  useEffect(() => {
    if (doc.version <= base.current || dirty.current || inFlight.current || gesture.current) return;
    base.current = doc.version;
    setHistory(historyStart(doc.shapes));
    setSelectedId((id) => (id && doc.shapes.some((s) => s.id === id) ? id : null));
  }, [doc]);

  // Leaving the editor (Done, another photo, closing) saves what is pending.
  useEffect(() => () => void flush(), [flush]);

  const undo = () => {
    const h = historyUndo(historyRef.current);
    if (h === historyRef.current) return;
    historyRef.current = h;
    setHistory(h);
    dirty.current = true;
    schedule();
  };
  const redo = () => {
    const h = historyRedo(historyRef.current);
    if (h === historyRef.current) return;
    historyRef.current = h;
    setHistory(h);
    dirty.current = true;
    schedule();
  };
  const remove = () => {
    if (!selected) return;
    commit(historyRef.current.present.filter((s) => s.id !== selected.id));
    setSelectedId(null);
  };
  const replace = (shape: Shape) => historyRef.current.present.map((s) => (s.id === shape.id ? shape : s));

  // Keyboard: undo/redo, delete, nudge, Escape. Captured on the window so the lightbox's
  // own keys (arrows step photos, Escape closes) do not act while drawing.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return;
      const step = historyKey(e);
      const take = () => {
        e.preventDefault();
        e.stopPropagation();
      };
      if (step) {
        take();
        if (step === 'undo') undo();
        else redo();
        return;
      }
      if (e.key === 'Escape') {
        take();
        if (selectedId) setSelectedId(null);
        else onDone();
        return;
      }
      const current = selectedId ? historyRef.current.present.find((s) => s.id === selectedId) : undefined;
      if (!current) {
        // Arrows must not step to another photo under the editor.
        if (e.key.startsWith('Arrow')) take();
        return;
      }
      if (e.key === 'Delete' || e.key === 'Backspace') {
        take();
        remove();
        return;
      }
      const d = (e.shiftKey ? 10 : 1) * NUDGE;
      const delta: Record<string, [number, number]> = { ArrowLeft: [-d, 0], ArrowRight: [d, 0], ArrowUp: [0, -d], ArrowDown: [0, d] };
      const move = delta[e.key];
      if (move) {
        take();
        commit(replace(moveShape(current, move[0], move[1])));
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });

  const toPoint = (e: { clientX: number; clientY: number }): Point => {
    const rect = surfaceRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: 0, y: 0 };
    return clampPoint({ x: (e.clientX - rect.left) / rect.width, y: (e.clientY - rect.top) / rect.height });
  };
  const scale = boxWidth > 0 ? W / boxWidth : 1;
  const tolerance = HIT_TOLERANCE_PX * scale;
  const size = { width: W, height: H };

  const startEntry = (kind: 'text' | 'pin', at: Point) => {
    const problem = addProblem(historyRef.current.present, kind);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setSelectedId(null);
    setEntry({ kind, at, id: null, value: '' });
  };

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if (gesture.current || entry) return;
    e.preventDefault();
    surfaceRef.current?.focus({ preventScroll: true });
    const p = toPoint(e);
    const present = historyRef.current.present;
    setMessage(null);

    // A handle of the selected shape, whatever the tool.
    if (selected && mine(selected)) {
      const handle = shapeHandles(selected).find((h) => Math.hypot((h.at.x - p.x) * W, (h.at.y - p.y) * H) <= tolerance * 1.2);
      if (handle) {
        gesture.current = { kind: 'resize', pointerId: e.pointerId, id: selected.id, handle: handle.id, original: selected };
        e.currentTarget.setPointerCapture(e.pointerId);
        return;
      }
    }
    const grabs = tool === 'select' || tool === 'pin';
    const hit = grabs ? hitTest(present, p, size, tolerance, mine) : null;
    if (hit) {
      const original = present.find((s) => s.id === hit);
      if (original) {
        setSelectedId(hit);
        gesture.current = { kind: 'move', pointerId: e.pointerId, id: hit, start: p, original, moved: false };
        e.currentTarget.setPointerCapture(e.pointerId);
      }
      return;
    }
    if (tool === 'select') {
      setSelectedId(null);
      return;
    }
    if (tool === 'text' || tool === 'pin') {
      startEntry(tool, p);
      return;
    }
    const problem = addProblem(present, tool);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    const geometry: Geometry = tool === 'pen' ? { kind: 'pen', points: [p] } : { kind: tool, from: p, to: p };
    const shape: Shape = { id: newId(), color, width, geometry, authorId: '' };
    setSelectedId(null);
    gesture.current = { kind: 'draw', pointerId: e.pointerId, shape };
    e.currentTarget.setPointerCapture(e.pointerId);
    setLive([...present, shape]);
  };

  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>) => {
    const g = gesture.current;
    if (!g || g.pointerId !== e.pointerId) return;
    const p = toPoint(e);
    const present = historyRef.current.present;
    if (g.kind === 'draw') {
      const geo = g.shape.geometry;
      let next: Geometry = geo;
      if (geo.kind === 'pen') {
        const points = addPenPoint(geo.points, p, penBudget(present));
        if (points !== geo.points) next = { ...geo, points };
      } else if (geo.kind !== 'text' && geo.kind !== 'pin') {
        next = { ...geo, to: p };
      }
      if (next === geo) return;
      g.shape = { ...g.shape, geometry: next };
      setLive([...present, g.shape]);
    } else if (g.kind === 'move') {
      g.moved = true;
      const moved = moveShape(g.original, p.x - g.start.x, p.y - g.start.y);
      setLive(present.map((s) => (s.id === g.id ? moved : s)));
    } else {
      const resized = resizeShape(g.original, g.handle, p);
      setLive(present.map((s) => (s.id === g.id ? resized : s)));
    }
  };

  const onPointerUp = (e: ReactPointerEvent<SVGSVGElement>) => {
    const g = gesture.current;
    if (!g || g.pointerId !== e.pointerId) return;
    gesture.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    const result = liveRef.current;
    setLive(null);
    if (!result || e.type === 'pointercancel') {
      if (dirty.current) schedule();
      return;
    }
    if (g.kind === 'draw') {
      const drawn = result.find((s) => s.id === g.shape.id);
      if (drawn && !isDegenerate(drawn.geometry)) commit(result);
    } else if (g.kind === 'move' && !g.moved) {
      // A tap selects; nothing changed. A homeowner's tap on their pin opens its note.
      if (access === 'own-pins' && g.original.geometry.kind === 'pin') editEntry(g.original);
    } else {
      commit(result);
    }
    if (dirty.current) schedule();
  };

  const editEntry = (shape: Shape) => {
    const geo = shape.geometry;
    if (geo.kind === 'text') setEntry({ kind: 'text', at: geo.at, id: shape.id, value: geo.text });
    else if (geo.kind === 'pin') setEntry({ kind: 'pin', at: geo.at, id: shape.id, value: geo.note });
  };

  const entryProblem = entry
    ? entry.kind === 'text'
      ? labelProblem(entry.value)
      : access === 'own-pins' && entry.value.trim() === ''
        ? 'Type your question first.'
        : null
    : null;

  const finishEntry = () => {
    if (!entry || entryProblem) return;
    const present = historyRef.current.present;
    if (entry.id) {
      const held = present.find((s) => s.id === entry.id);
      if (held && (held.geometry.kind === 'text' || held.geometry.kind === 'pin')) {
        const geometry: Geometry = held.geometry.kind === 'text' ? { ...held.geometry, text: entry.value } : { ...held.geometry, note: entry.value.trim() };
        commit(replace({ ...held, geometry }));
      }
    } else {
      const geometry: Geometry = entry.kind === 'text' ? { kind: 'text', at: entry.at, text: entry.value } : { kind: 'pin', at: entry.at, note: entry.value.trim() };
      const shape: Shape = { id: newId(), color, width, geometry, authorId: '' };
      if (commit([...present, shape])) setSelectedId(shape.id);
    }
    setEntry(null);
    surfaceRef.current?.focus({ preventScroll: true });
  };

  /** Colour and width apply to what is selected, and to what is drawn next. */
  const pickColor = (c: MarkupColor) => {
    setColor(c);
    if (selected && mine(selected) && selected.color !== c) commit(replace({ ...selected, color: c }));
  };
  const pickWidth = (w: StrokeWidth) => {
    setWidth(w);
    if (selected && mine(selected) && selected.width !== w) commit(replace({ ...selected, width: w }));
  };

  const onSurfaceKey = (e: ReactKeyboardEvent<SVGSVGElement>) => {
    // Keyboard placement: Enter puts a label or pin in the middle of the photo.
    if (e.key === 'Enter' && (tool === 'text' || tool === 'pin')) {
      e.preventDefault();
      startEntry(tool, { x: 0.5, y: 0.5 });
    } else if (e.key === 'Enter' && selected && mine(selected) && (selected.geometry.kind === 'text' || selected.geometry.kind === 'pin')) {
      e.preventDefault();
      editEntry(selected);
    }
  };

  const done = () => {
    void flush();
    onDone();
  };

  const numbers = pinNumbers(shapes);
  const handleR = 7 * scale;
  const selectedBox = selected ? shapeBounds(selected, size) : null;
  const homeowner = access === 'own-pins';
  const toolHint =
    tool === 'pin'
      ? homeowner
        ? 'Tap the photo to place a pin with your question. Tap your pin to edit or move it.'
        : 'Tap the photo to place a numbered pin with a note.'
      : tool === 'text'
        ? 'Tap the photo where the label should start.'
        : tool === 'select'
          ? 'Tap a shape to select it; drag to move it or its handles to resize. Arrow keys nudge, Delete removes.'
          : `Drag on the photo to draw ${tool === 'pen' ? 'freehand' : `a${tool === 'arrow' || tool === 'ellipse' ? 'n' : ''} ${TOOL_META[tool].label.toLowerCase()}`}.`;

  const toolbar = (
    <div className={cn('flex flex-col gap-2', toolbarClassName)} data-testid="markup-toolbar">
      <div role="toolbar" aria-label="Markup tools" className="flex flex-wrap items-center gap-1">
        <div role="group" aria-label="Tool" className="flex flex-wrap gap-1">
          {tools.map((t) => {
            const { label, icon: Icon } = TOOL_META[t];
            return (
              <button key={t} type="button" aria-pressed={tool === t} aria-label={label} title={label} onClick={() => setTool(t)} className={toolButton} data-tool={t}>
                <Icon className="size-5" aria-hidden="true" />
              </button>
            );
          })}
        </div>
        <span className="mx-1 h-6 w-px bg-white/20" aria-hidden="true" />
        <div role="group" aria-label="Colour" className="flex flex-wrap gap-1">
          {MARKUP_COLORS.map((c) => (
            <button
              key={c}
              type="button"
              aria-pressed={color === c}
              aria-label={COLOR_LABELS[c]}
              title={COLOR_LABELS[c]}
              onClick={() => pickColor(c)}
              className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg transition hover:bg-white/15 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white aria-pressed:bg-white/20"
            >
              <span
                className={cn('size-6 rounded-full ring-2 ring-white/40', color === c && 'ring-white ring-offset-2 ring-offset-slate-950')}
                style={{ backgroundColor: COLOR_HEX[c] }}
              />
            </button>
          ))}
        </div>
        <span className="mx-1 h-6 w-px bg-white/20" aria-hidden="true" />
        <div role="group" aria-label="Stroke width" className="flex gap-1">
          {STROKE_WIDTHS.map((w, i) => (
            <button key={w} type="button" aria-pressed={width === w} aria-label={WIDTH_LABELS[w]} title={WIDTH_LABELS[w]} onClick={() => pickWidth(w)} className={toolButton}>
              <span className="block w-5 rounded-full bg-current" style={{ height: 2 + i * 3 }} />
            </button>
          ))}
        </div>
        <span className="mx-1 h-6 w-px bg-white/20" aria-hidden="true" />
        <div className="flex gap-1">
          <button type="button" aria-label="Undo" title="Undo (Ctrl+Z)" onClick={undo} disabled={!canUndo(history)} className={toolButton}>
            <Undo2 className="size-5" aria-hidden="true" />
          </button>
          <button type="button" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" onClick={redo} disabled={!canRedo(history)} className={toolButton}>
            <Redo2 className="size-5" aria-hidden="true" />
          </button>
          <button
            type="button"
            aria-label="Delete shape"
            title="Delete shape (Delete)"
            onClick={remove}
            disabled={!selected || !mine(selected)}
            className={cn(toolButton, 'hover:bg-red-600')}
          >
            <Trash2 className="size-5" aria-hidden="true" />
          </button>
        </div>
        <button
          type="button"
          onClick={done}
          className="ml-auto inline-flex h-10 shrink-0 items-center gap-1.5 rounded-lg bg-brand-500 px-3 text-sm font-semibold text-slate-950 transition hover:bg-brand-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          <Check className="size-4" aria-hidden="true" />
          Done
        </button>
      </div>
      <p className="text-xs text-white/75" data-testid="markup-status" aria-live="polite">
        {saving ? 'Saving…' : toolHint}
      </p>
      {message && (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          data-testid="markup-message"
          className={cn('rounded-lg px-3 py-2 text-sm', message.tone === 'error' ? 'bg-red-500/20 text-red-100' : 'bg-amber-400/20 text-amber-50')}
        >
          {message.text}
        </p>
      )}
      {selected && mine(selected) && (selected.geometry.kind === 'text' || selected.geometry.kind === 'pin') && !entry && (
        <div className="flex items-center gap-2 text-sm text-white/85">
          <span className="min-w-0 truncate">
            {selected.geometry.kind === 'pin' ? `Pin ${numbers.get(selected.id) ?? ''}: ${selected.geometry.note || 'no note'}` : `Label: ${selected.geometry.text}`}
          </span>
          <button type="button" onClick={() => editEntry(selected)} className="shrink-0 rounded-md bg-white/10 px-2.5 py-1.5 font-medium hover:bg-white/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white">
            {selected.geometry.kind === 'pin' ? 'Edit note' : 'Edit text'}
          </button>
        </div>
      )}
      {entry && (
        <form
          className="flex flex-col gap-2 rounded-lg bg-white/10 p-2.5 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            finishEntry();
          }}
        >
          <div className="min-w-0 flex-1">
            <label htmlFor={entryId} className="mb-1 block text-xs font-medium text-white/85">
              {entry.kind === 'text' ? 'Label text' : homeowner ? 'Your question' : 'Pin note'}
            </label>
            <textarea
              id={entryId}
              autoFocus
              rows={2}
              value={entry.value}
              maxLength={entry.kind === 'text' ? MARKUP_MAX_LABEL : MARKUP_MAX_NOTE}
              data-keep-escape="true"
              onChange={(e) => setEntry({ ...entry, value: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  setEntry(null);
                  surfaceRef.current?.focus({ preventScroll: true });
                } else if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  finishEntry();
                }
              }}
              placeholder={entry.kind === 'text' ? 'e.g. Move outlet here' : homeowner ? 'e.g. Is this where the window goes?' : 'What should people know here?'}
              className="block w-full resize-none rounded-md border border-white/20 bg-slate-950/60 px-2.5 py-1.5 text-sm text-white placeholder:text-white/50 focus:border-brand-400 focus:ring-2 focus:ring-brand-400/40 focus:outline-none"
            />
            <p className="mt-1 text-xs text-white/70">
              {entryProblem && entry.value !== '' ? entryProblem : entry.kind === 'text' ? `Up to ${MARKUP_MAX_LABEL} characters, 5 lines (Shift+Enter for a new line).` : `Up to ${MARKUP_MAX_NOTE} characters.`}
            </p>
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              onClick={() => setEntry(null)}
              className="h-10 rounded-lg px-3 text-sm font-medium text-white/85 hover:bg-white/15 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
            >
              Cancel
            </button>
            <button
              type="submit"
              disabled={entryProblem !== null}
              className="h-10 rounded-lg bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-white/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-400 disabled:opacity-50"
            >
              {entry.id ? 'Save' : entry.kind === 'text' ? 'Add label' : 'Add pin'}
            </button>
          </div>
        </form>
      )}
    </div>
  );

  const surface = (
    <svg
      ref={surfaceRef}
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      tabIndex={0}
      role="application"
      aria-label={`Drawing surface. ${TOOL_META[tool].label} tool. ${shapes.length === 1 ? '1 shape' : `${shapes.length} shapes`}.`}
      aria-roledescription="markup editor"
      data-testid="markup-surface"
      data-version={doc.version}
      data-pending={pending}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      // A tap's compatibility click comes after the layout has moved: placing a pin or
      // a label opens its form above the photo and pushes the photo down, so on a
      // phone the click landed on the form's own "Add pin" and saved an empty note.
      // The surface works from pointer events alone, so that click is not sent.
      onTouchEnd={(e) => e.preventDefault()}
      onKeyDown={onSurfaceKey}
      className={cn('absolute inset-0 size-full touch-none select-none focus-visible:outline-2 focus-visible:outline-brand-400', tool === 'select' ? 'cursor-default' : 'cursor-crosshair')}
    >
      <MarkupShapes shapes={shapes} width={W} height={H} />
      {entry && entry.id === null && (
        <circle cx={entry.at.x * W} cy={entry.at.y * H} r={handleR} fill="none" stroke="#fff" strokeWidth={2 * scale} strokeDasharray={`${3 * scale} ${3 * scale}`} />
      )}
      {selected && selectedBox && (
        <g data-testid="markup-selection" pointerEvents="none">
          <rect
            x={selectedBox.left * W - 4 * scale}
            y={selectedBox.top * H - 4 * scale}
            width={(selectedBox.right - selectedBox.left) * W + 8 * scale}
            height={(selectedBox.bottom - selectedBox.top) * H + 8 * scale}
            fill="none"
            stroke="#38bdf8"
            strokeWidth={1.5 * scale}
            strokeDasharray={`${5 * scale} ${4 * scale}`}
          />
          {mine(selected) &&
            shapeHandles(selected).map((h) => (
              <circle key={h.id} cx={h.at.x * W} cy={h.at.y * H} r={handleR} fill="#fff" stroke="#0284c7" strokeWidth={2 * scale} data-handle={h.id} />
            ))}
        </g>
      )}
    </svg>
  );

  return <>{children({ toolbar, surface })}</>;
}
