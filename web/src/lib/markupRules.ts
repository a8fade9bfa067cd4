import type { Geometry, Project, Shape } from '../protocol/types';
import { projectStanding, type Viewer } from './companyRules';
import { MARKUP_MAX_LABEL, MARKUP_MAX_LABEL_LINES, MARKUP_MAX_NOTE, MARKUP_MAX_PEN_POINTS, MARKUP_MAX_POINTS, MARKUP_MAX_SHAPES, MARKUP_MAX_TEXT } from './limits';
import { penPointCount } from './markupGeometry';

/**
 * Who may draw on a project's photos, as the server decides it
 * (docs/FEATURES.md, "Markup on photos"): admins and the project's builder (its company's
 * owners, managers and crew on it) use every tool and may change any shape; the project's
 * homeowner may only add pins (a question as the note) and change their own pins;
 * everyone else (guests included) only looks. The server enforces it; the editor only
 * offers what it would accept.
 */
export type MarkupAccess = 'all' | 'own-pins' | 'none';

export type MarkupTool = 'select' | 'arrow' | 'line' | 'rect' | 'ellipse' | 'pen' | 'text' | 'pin';

export const ALL_TOOLS: readonly MarkupTool[] = ['select', 'arrow', 'line', 'rect', 'ellipse', 'pen', 'text', 'pin'];

export function markupAccess(me: Viewer | null, project: Pick<Project, 'builderId' | 'homeownerId' | 'crew'> | null | undefined): MarkupAccess {
  if (!me || !project) return 'none';
  const standing = projectStanding(me, project);
  if (standing === 'admin' || standing === 'lead' || standing === 'crew') return 'all';
  if (standing === 'homeowner') return 'own-pins';
  return 'none';
}

/** The tools the editor offers: a homeowner gets the pin alone (it selects their own pins too). */
export function toolsFor(access: MarkupAccess): MarkupTool[] {
  if (access === 'all') return [...ALL_TOOLS];
  if (access === 'own-pins') return ['pin'];
  return [];
}

/** Whether this user may select, move, edit or delete `shape`. */
export function canChangeShape(access: MarkupAccess, myId: string | undefined, shape: Shape): boolean {
  if (access === 'all') return true;
  if (access === 'own-pins') return shape.geometry.kind === 'pin' && shape.authorId === myId && myId !== undefined;
  return false;
}

/**
 * Why `shapes` would be refused, or null when the server would take it. The editor
 * checks before adding anything and says this instead of sending.
 */
export function markupLimitProblem(shapes: readonly Shape[]): string | null {
  if (shapes.length > MARKUP_MAX_SHAPES) return `A photo holds at most ${MARKUP_MAX_SHAPES} shapes. Delete one to add another.`;
  for (const s of shapes) {
    const g = s.geometry;
    if (g.kind === 'pen' && g.points.length > MARKUP_MAX_PEN_POINTS) return `A freehand stroke holds at most ${MARKUP_MAX_PEN_POINTS} points.`;
    if (g.kind === 'text') {
      const problem = labelProblem(g.text);
      if (problem) return problem;
    }
    if (g.kind === 'pin' && [...g.note].length > MARKUP_MAX_NOTE) return `A pin's note is at most ${MARKUP_MAX_NOTE} characters.`;
  }
  if (penPointCount(shapes) > MARKUP_MAX_POINTS) return `A photo holds at most ${MARKUP_MAX_POINTS} freehand points. Delete a stroke to draw more.`;
  if (textCount(shapes) > MARKUP_MAX_TEXT) return `A photo's labels and notes hold at most ${MARKUP_MAX_TEXT.toLocaleString('en-US')} characters in all. Shorten one to add more.`;
  return null;
}

/** Characters of all labels and notes, counted as the server counts them (code points). */
export function textCount(shapes: readonly Shape[]): number {
  let n = 0;
  for (const s of shapes) {
    const g = s.geometry;
    if (g.kind === 'text') n += [...g.text].length;
    if (g.kind === 'pin') n += [...g.note].length;
  }
  return n;
}

/** Why a label cannot be placed (empty, too long, too many lines), or null. */
export function labelProblem(text: string): string | null {
  if (text.trim() === '') return 'Type the label first.';
  if ([...text].length > MARKUP_MAX_LABEL) return `A label is at most ${MARKUP_MAX_LABEL} characters.`;
  if (text.split('\n').length > MARKUP_MAX_LABEL_LINES) return `A label is at most ${MARKUP_MAX_LABEL_LINES} lines.`;
  return null;
}

/** Why no shape can be added now (the photo is full), or null. */
export function addProblem(shapes: readonly Shape[], kind: Geometry['kind']): string | null {
  if (shapes.length >= MARKUP_MAX_SHAPES) return `This photo has the most shapes it can hold (${MARKUP_MAX_SHAPES}). Delete one to add another.`;
  if (kind === 'pen' && penPointCount(shapes) >= MARKUP_MAX_POINTS - 1)
    return `This photo has the most freehand drawing it can hold (${MARKUP_MAX_POINTS} points). Delete a stroke to draw more.`;
  return null;
}

/** How many points the next pen stroke may have: the per-stroke limit, or what the photo has left. */
export function penBudget(shapes: readonly Shape[]): number {
  return Math.max(0, Math.min(MARKUP_MAX_PEN_POINTS, MARKUP_MAX_POINTS - penPointCount(shapes)));
}
