import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Comment, SearchResults } from '../../protocol/types';
import { searchItems } from '../../lib/searchLinks';
import { queryWords } from '../../lib/searchText';
import { photo, profile, project } from '../../testing/fixtures';
import { SearchResultsList } from './SearchResultsList';

const noop = () => undefined;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

const comment = {
  id: 'c1',
  imageId: 'i1',
  projectId: 'p1',
  author: { id: 'u', email: 'jamie@example.com', name: 'Jamie Carter', role: 'homeowner', createdAt: 0, company: null },
  body: 'Can the kitchen outlets move left?',
  createdAt: 0,
  updatedAt: 0,
  version: 1,
} as Comment;

const results: SearchResults = {
  query: 'kitch',
  projectId: null,
  projects: [{ project: project({ id: 'p1', title: 'Kitchen remodel', address: '1 Main St' }), thumbUrl: null, milestone: null }],
  photos: [
    { photo: photo({ id: 'i1', caption: null, tags: ['Kitchen', 'Electrical'] }), projectTitle: 'Maple Street Residence', milestone: null },
    { photo: photo({ id: 'i2', caption: 'Kitchen island' }), projectTitle: 'Maple Street Residence', milestone: 'Framing' },
  ],
  comments: [{ comment, projectTitle: 'Maple Street Residence', thumbUrl: '/t' }],
  people: [profile({ id: 'u9', firstName: 'Kitch', lastName: 'Ener', email: 'k@example.com', role: 'builder' })],
  morePhotos: true,
};

function render(r: SearchResults | null, status: 'idle' | 'loading' | 'ready' | 'error' = 'ready', error: string | null = null) {
  return renderToStaticMarkup(
    <SearchResultsList
      prefix="s"
      results={r}
      items={searchItems(r)}
      words={queryWords(r?.query ?? '')}
      active="photo-i2"
      status={status}
      error={error}
      onPick={noop}
      onHover={noop}
      onRetry={noop}
    />,
  );
}

describe('SearchResultsList', () => {
  it('groups the results under Projects, Photos, Comments and People, in a listbox', () => {
    const html = render(results);
    expect(html).toContain('role="listbox"');
    expect(text(html)).toMatch(/Projects .* Photos .* Comments .* People/);
    expect(html.match(/role="option"/g)).toHaveLength(5);
    expect(html).toContain('id="s-photo-i2" role="option" aria-selected="true"');
  });

  it('marks matched word starts and names untitled photos', () => {
    const html = render(results);
    expect(html).toContain('<mark class="rounded-[3px] bg-amber-200 px-px text-slate-900 dark:bg-amber-400/30 dark:text-amber-50">Kitch</mark>');
    expect(text(html)).toContain('Untitled photo');
    expect(text(html)).toContain('Jamie Carter');
    expect(text(html)).toContain('More photos match — add a word to narrow it.');
  });

  it('says when nothing matched, while searching, and when it failed', () => {
    const none = { ...results, query: 'zzz', projects: [], photos: [], comments: [], people: [], morePhotos: false };
    expect(text(render(none))).toContain('No results for “zzz”');
    expect(text(render(null, 'loading'))).toContain('Searching…');
    expect(text(render(null, 'error', 'Search is not available right now.'))).toContain('Try again');
    expect(render(null, 'idle')).toBe('');
  });
});
