/**
 * SPEC §2: "any path starting with /projects/ and having more than two segments shows a
 * back button on small screens and the logo on larger screens". Segments are counted as
 * the path splits on "/", leading empty one included, so /projects/{id} (the project
 * page) qualifies and /projects (the list, with or without a trailing slash) does not.
 */
export function showsBackButton(pathname: string): boolean {
  return pathname.startsWith('/projects/') && pathname.replace(/\/+$/, '').split('/').length > 2;
}

/** Where the back button goes without history in this tab (a link opened fresh): up one level. */
export function parentPath(pathname: string): string {
  const parts = pathname.replace(/\/+$/, '').split('/');
  return parts.length > 2 ? parts.slice(0, -1).join('/') : '/';
}
