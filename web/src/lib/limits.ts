// The server's longest accepted values (server/src/domain/validation.rs,
// docs/LIMITS.md), as `maxLength` on the form inputs; a server test keeps the numbers equal.
// HTML counts UTF-16 code units, never fewer than the server's characters, so a form
// cannot send more than the server takes.
export const MAX_LENGTH = {
  firstName: 100,
  lastName: 100,
  name: 200,
  email: 254,
  phone: 40,
  password: 256,
  projectTitle: 200,
  projectAddress: 300,
  projectDescription: 5000,
  caption: 500,
  batchNote: 1000,
  comment: 2000,
  milestoneName: 120,
  contactMessage: 5000,
  tag: 40,
  searchQuery: 200,
} as const;

// Markup on photos: the server refuses a save beyond these with a field error
// on `shapes`; the editor stops before them and says why. A server test reads these
// names and values from this file, so they stay equal to server/src/domain's.
/** Shapes on one photo. */
export const MARKUP_MAX_SHAPES = 100;
/** Points in one freehand stroke (the pen stops adding points there). */
export const MARKUP_MAX_PEN_POINTS = 500;
/** Freehand points on one photo, all strokes together. */
export const MARKUP_MAX_POINTS = 1000;
/** Characters of a text label (and at most `MARKUP_MAX_LABEL_LINES` lines). */
export const MARKUP_MAX_LABEL = 100;
export const MARKUP_MAX_LABEL_LINES = 5;
/** Characters of a pin's note. */
export const MARKUP_MAX_NOTE = 500;
/** Characters of all labels and notes on one photo together (with the points cap, the
 * largest document still fits one 64 KiB frame: markupRules.test.ts encodes it). */
export const MARKUP_MAX_TEXT = 4000;

// Tags and search: the server refuses more with a field error.
/** Tags on one photo. */
export const TAGS_PER_PHOTO = 20;
/** Tags added (and, separately, removed) by one request. */
export const TAGS_PER_REQUEST = 20;
/** Photos tagged by one request (a gallery selection). */
export const TAG_PHOTOS_AT_ONCE = 500;
