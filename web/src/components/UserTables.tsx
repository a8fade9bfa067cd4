import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowDown, ArrowUp, ChevronLeft, ChevronRight, ChevronsUpDown, FolderOpen, Mail, Pencil, Phone, ShieldOff, Trash2 } from 'lucide-react';
import type { Profile, Role, UserCounts, UserListing } from '../protocol/types';
import { cn } from '../lib/cn';
import { displayName } from '../lib/names';
import { editsHomeowners } from '../lib/companyRules';
import { DEFAULT_SORT, nextSort, pageRange, type Sort, type SortKey } from '../lib/userTable';
import { useMediaQuery } from '../lib/useMediaQuery';
import { useAppStore } from '../store';
import { Avatar } from './Avatar';
import { DeleteUserDialog } from './dialogs/DeleteUserDialog';
import { EditUserDialog } from './dialogs/EditUserDialog';
import { ResetFactorsDialog } from './dialogs/ResetFactorsDialog';
import { Button, buttonClasses } from './ui/Button';
import { SearchBox } from './ui/SearchBox';
import { useUserPage } from './useUserPage';

const EMPTY_TEXT: Record<Role, string> = {
  homeowner: 'No homeowners found matching your search.',
  builder: 'No builders found matching your search.',
  admin: 'No administrators found matching your search.',
};

const iconButton =
  'inline-flex size-8 items-center justify-center rounded-lg text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:pointer-events-none disabled:opacity-35 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';

const SORT_LABELS: Record<SortKey, string> = { name: 'Name', email: 'Email', phone: 'Phone', projects: 'Projects', builder: 'Builder' };

/** A column header that sorts the table by its column (and flips on a second click). */
function SortHeader({ column, sort, onSort, className }: { column: SortKey; sort: Sort; onSort: (key: SortKey) => void; className?: string }) {
  const active = sort.key === column;
  const Icon = !active ? ChevronsUpDown : sort.direction === 'ascending' ? ArrowUp : ArrowDown;
  return (
    <th scope="col" aria-sort={active ? sort.direction : undefined} className={cn('px-2 py-1.5 font-medium', className)}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className={cn(
          'inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-xs font-medium tracking-wide uppercase transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:hover:bg-slate-800 dark:hover:text-white',
          active ? 'text-slate-900 dark:text-white' : 'text-slate-600 dark:text-slate-300',
        )}
      >
        {SORT_LABELS[column]}
        <Icon className={cn('size-3.5', !active && 'opacity-60')} aria-hidden="true" />
      </button>
    </th>
  );
}

function Dash() {
  return <span className="text-slate-500 dark:text-slate-400">—</span>;
}

interface RowModel {
  listing: UserListing;
  name: string;
  self: boolean;
  online: boolean;
  canEdit: boolean;
  canDelete: boolean;
  /** Admins reset another user's second factors (not their own: Security does that). */
  canResetFactors: boolean;
  projectsHref: string | null;
  projectsLabel: string;
}

/**
 * One searchable user table of the dashboards (SPEC §2 Tables). Columns and actions
 * follow the role listed and who is looking: builders see no Builder column and no
 * delete; an admin cannot delete their own row. The server searches, sorts and pages
 * (an installation's homeowners are too many to send whole), and on a phone each
 * person is a card with every detail and labelled actions.
 */
export function UserTable({
  role,
  viewer,
  initialQuery = '',
  onCounts,
}: {
  role: Role;
  viewer: Profile;
  /** What the search box starts with (a person picked in the header search). */
  initialQuery?: string;
  /** Told each reply's people per role (the admin's tab counts). */
  onCounts?: (counts: UserCounts) => void;
}) {
  const [query, setQuery] = useState(initialQuery);
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Profile | null>(null);
  const [deleting, setDeleting] = useState<Profile | null>(null);
  const [resetting, setResetting] = useState<Profile | null>(null);
  const online = useAppStore((s) => s.online);
  const wide = useMediaQuery('(min-width: 768px)');
  const isAdmin = viewer.role === 'admin';
  const showProjects = role !== 'admin';
  const showBuilder = role === 'homeowner' && isAdmin;
  const label = role === 'admin' ? 'administrators' : `${role}s`;
  const listed = useUserPage({ role, query, sort, page });
  const shown = pageRange(listed.total, listed.page, listed.pageSize, listed.rows.length);
  const { counts } = listed;
  useEffect(() => {
    if (counts) onCounts?.(counts);
  }, [counts, onCounts]);
  const columns: SortKey[] = ['name', 'email', 'phone', ...(showProjects ? (['projects'] as const) : []), ...(showBuilder ? (['builder'] as const) : [])];

  // Before the first page: loading, or (after a failure) nothing to show but the error.
  const state: TableState | 'failed' = listed.answered === null ? (listed.error && !listed.loading ? 'failed' : 'first-load') : listed.loading ? 'busy' : 'idle';

  const search = (value: string) => {
    setQuery(value);
    setPage(0);
  };
  const sortBy = (next: Sort) => {
    setSort(next);
    setPage(0);
  };

  const rows: RowModel[] = listed.rows.map((listing) => {
    const { user } = listing;
    const self = user.id === viewer.id;
    return {
      listing,
      name: displayName(user),
      self,
      online: self || Boolean(online[user.id]),
      // A company's crew see its homeowners but leave their details to its leads.
      canEdit: isAdmin || (editsHomeowners(viewer) && user.role === 'homeowner'),
      canDelete: isAdmin,
      canResetFactors: isAdmin && !self,
      projectsHref: role === 'admin' ? null : role === 'homeowner' ? `/homeowner/${user.id}/projects` : `/builder/${user.id}/projects`,
      projectsLabel: role === 'homeowner' ? 'View Projects' : 'View All Projects',
    };
  });

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox value={query} onChange={search} label={`Search ${label} by name or email`} />
        {!wide && (
          <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <span className="shrink-0">Sort by</span>
            <select
              value={`${sort.key}:${sort.direction}`}
              onChange={(e) => {
                const [key, direction] = e.target.value.split(':') as [SortKey, Sort['direction']];
                sortBy({ key, direction });
              }}
              className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            >
              {columns.flatMap((key) => [
                <option key={`${key}:ascending`} value={`${key}:ascending`}>
                  {SORT_LABELS[key]} {key === 'projects' ? '(fewest first)' : '(A–Z)'}
                </option>,
                <option key={`${key}:descending`} value={`${key}:descending`}>
                  {SORT_LABELS[key]} {key === 'projects' ? '(most first)' : '(Z–A)'}
                </option>,
              ])}
            </select>
          </label>
        )}
      </div>
      {listed.error && <ListFailed label={label} error={listed.error} retrying={listed.loading} onRetry={listed.retry} />}
      {state === 'failed' ? null : wide ? (
        <UserGrid rows={rows} role={role} label={label} state={state} sort={sort} onSort={(key) => sortBy(nextSort(sort, key))} showProjects={showProjects} showBuilder={showBuilder} onEdit={setEditing} onDelete={setDeleting} onResetFactors={setResetting} />
      ) : (
        <UserCards rows={rows} role={role} label={label} state={state} showProjects={showProjects} showBuilder={showBuilder} onEdit={setEditing} onDelete={setDeleting} onResetFactors={setResetting} />
      )}
      {shown.pages > 1 && (
        <nav aria-label={`Pages of ${label}`} className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600 dark:text-slate-300">
          <p aria-live="polite" data-testid="table-range">
            Showing {shown.from}–{shown.to} of {shown.total}
          </p>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => setPage(shown.page - 1)} disabled={shown.page === 0}>
              <ChevronLeft className="size-4" aria-hidden="true" />
              Previous
            </Button>
            <Button variant="outline" size="sm" onClick={() => setPage(shown.page + 1)} disabled={shown.page >= shown.pages - 1}>
              Next
              <ChevronRight className="size-4" aria-hidden="true" />
            </Button>
          </div>
        </nav>
      )}
      {editing && <EditUserDialog key={editing.id} user={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteUserDialog key={deleting.id} user={deleting} onClose={() => setDeleting(null)} />}
      {resetting && <ResetFactorsDialog key={resetting.id} user={resetting} onClose={() => setResetting(null)} />}
    </div>
  );
}

/** What a table shows while its page is read: the first (no rows yet), or a next one (the last rows stay). */
type TableState = 'first-load' | 'busy' | 'idle';

/** A page that could not be read: why, and a Retry (the rows last read stay below). */
function ListFailed({ label, error, retrying, onRetry }: { label: string; error: Error; retrying: boolean; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <span>
        {label.charAt(0).toUpperCase() + label.slice(1)} could not be loaded. {error.message}
      </span>
      <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** Said in place of the rows until the first page comes. */
function loadingText(label: string): string {
  return `Loading ${label}…`;
}

interface RowsProps {
  rows: RowModel[];
  role: Role;
  /** "homeowners", "builders" or "administrators". */
  label: string;
  state: TableState;
  showProjects: boolean;
  showBuilder: boolean;
  onEdit: (user: Profile) => void;
  onDelete: (user: Profile) => void;
  onResetFactors: (user: Profile) => void;
}

function NameCell({ row }: { row: RowModel }) {
  return (
    <p className="truncate font-medium text-slate-900 dark:text-white">
      {row.name}
      {row.self && <span className="ml-1.5 text-xs font-normal text-slate-600 dark:text-slate-300">(you)</span>}
    </p>
  );
}

function UserGrid({ rows, role, label, state, sort, onSort, showProjects, showBuilder, onEdit, onDelete, onResetFactors }: RowsProps & { sort: Sort; onSort: (key: SortKey) => void }) {
  return (
    <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm" aria-busy={state !== 'idle' || undefined}>
        <thead className="border-b border-slate-200 bg-slate-50/80 dark:border-slate-800 dark:bg-slate-900">
          <tr>
            <SortHeader column="name" sort={sort} onSort={onSort} />
            <SortHeader column="email" sort={sort} onSort={onSort} />
            <SortHeader column="phone" sort={sort} onSort={onSort} className="hidden lg:table-cell" />
            {showProjects && <SortHeader column="projects" sort={sort} onSort={onSort} className="text-center" />}
            {showBuilder && <SortHeader column="builder" sort={sort} onSort={onSort} className="hidden lg:table-cell" />}
            <th scope="col" className="px-4 py-3 text-right font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {state === 'first-load' ? (
            <tr>
              <td colSpan={6} className="px-4 py-12 text-center text-sm text-slate-600 dark:text-slate-300">
                <span role="status">{loadingText(label)}</span>
              </td>
            </tr>
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={6} className="px-4 py-12 text-center text-sm text-slate-600 dark:text-slate-300">
                {EMPTY_TEXT[role]}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const { user, projectCount, builderName } = row.listing;
              return (
                <tr key={user.id} data-testid="user-row" className="transition-colors hover:bg-slate-50/70 dark:hover:bg-slate-800/40">
                  <td className="max-w-72 px-4 py-3">
                    <div className="flex min-w-0 items-center gap-3">
                      <Avatar name={row.name} size="sm" online={row.online} />
                      <NameCell row={row} />
                    </div>
                  </td>
                  <td className="max-w-64 truncate px-4 py-3 text-slate-600 dark:text-slate-300">{user.email}</td>
                  <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 lg:table-cell dark:text-slate-300">{user.phone || <Dash />}</td>
                  {showProjects && <td className="px-4 py-3 text-center tabular-nums text-slate-700 dark:text-slate-200">{projectCount}</td>}
                  {showBuilder && (
                    <td className="hidden max-w-48 truncate px-4 py-3 text-slate-600 lg:table-cell dark:text-slate-300">{builderName || <Dash />}</td>
                  )}
                  <td className="w-px px-4 py-3 whitespace-nowrap">
                    <div className="flex items-center justify-end gap-1">
                      {row.projectsHref && (
                        <Link to={row.projectsHref} className={cn(buttonClasses('outline', 'sm'), 'mr-1')} aria-label={`${row.projectsLabel} of ${row.name}`}>
                          <FolderOpen className="size-4" aria-hidden="true" />
                          {row.projectsLabel}
                        </Link>
                      )}
                      {row.canEdit && (
                        <button type="button" className={iconButton} onClick={() => onEdit(user)} aria-label={`Edit ${row.name}`}>
                          <Pencil className="size-4" aria-hidden="true" />
                        </button>
                      )}
                      {row.canResetFactors && (
                        <button
                          type="button"
                          className={iconButton}
                          onClick={() => onResetFactors(user)}
                          aria-label={`Reset sign-in factors of ${row.name}`}
                          title="Reset sign-in factors"
                        >
                          <ShieldOff className="size-4" aria-hidden="true" />
                        </button>
                      )}
                      {row.canDelete && (
                        <button
                          type="button"
                          className={cn(iconButton, 'hover:bg-red-50 hover:text-red-600 dark:hover:bg-red-500/10 dark:hover:text-red-400')}
                          onClick={() => onDelete(user)}
                          disabled={row.self}
                          aria-label={`Delete ${row.name}`}
                          title={row.self ? 'You cannot delete your own account.' : undefined}
                        >
                          <Trash2 className="size-4" aria-hidden="true" />
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}

function Detail({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex w-full min-w-0 items-center gap-2">
      <dt className="shrink-0 text-slate-500 dark:text-slate-400">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="min-w-0 break-words text-slate-700 dark:text-slate-200">{children}</dd>
    </div>
  );
}

/** Phones: one card per person, every detail on it, and actions that say what they do. */
function UserCards({ rows, role, label, state, showProjects, showBuilder, onEdit, onDelete, onResetFactors }: RowsProps) {
  if (state === 'first-load' || rows.length === 0) {
    return (
      <p
        role={state === 'first-load' ? 'status' : undefined}
        aria-busy={state !== 'idle' || undefined}
        className="rounded-2xl border border-slate-200 bg-white px-4 py-10 text-center text-sm text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300"
      >
        {state === 'first-load' ? loadingText(label) : EMPTY_TEXT[role]}
      </p>
    );
  }
  return (
    <ul className="space-y-3" aria-busy={state !== 'idle' || undefined}>
      {rows.map((row) => {
        const { user, projectCount, builderName } = row.listing;
        return (
          <li key={user.id} data-testid="user-row" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
            <div className="flex items-start gap-3">
              <Avatar name={row.name} size="md" online={row.online} />
              <div className="min-w-0 flex-1">
                <NameCell row={row} />
                <dl className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                  <Detail icon={<Mail className="size-3.5" aria-hidden="true" />} label="Email">
                    {user.email}
                  </Detail>
                  <Detail icon={<Phone className="size-3.5" aria-hidden="true" />} label="Phone">
                    {user.phone || <Dash />}
                  </Detail>
                  {showProjects && (
                    <div className="flex gap-1 pt-0.5 text-slate-700 dark:text-slate-200">
                      <dt className="text-slate-600 dark:text-slate-300">Projects</dt>
                      <dd className="font-medium tabular-nums">{projectCount}</dd>
                    </div>
                  )}
                  {showBuilder && (
                    <div className="flex min-w-0 gap-1 pt-0.5 text-slate-700 dark:text-slate-200">
                      <dt className="text-slate-600 dark:text-slate-300">Builder</dt>
                      <dd className="min-w-0 truncate font-medium">{builderName || <Dash />}</dd>
                    </div>
                  )}
                </dl>
              </div>
            </div>
            {(row.projectsHref || row.canEdit || row.canDelete || row.canResetFactors) && (
              <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
                {row.projectsHref && (
                  <Link to={row.projectsHref} className={cn(buttonClasses('outline', 'sm'), 'flex-1')} aria-label={`${row.projectsLabel} of ${row.name}`}>
                    <FolderOpen className="size-4" aria-hidden="true" />
                    {row.projectsLabel}
                  </Link>
                )}
                {row.canEdit && (
                  <Button variant="outline" size="sm" onClick={() => onEdit(user)} aria-label={`Edit ${row.name}`}>
                    <Pencil className="size-4" aria-hidden="true" />
                    Edit
                  </Button>
                )}
                {row.canResetFactors && (
                  <Button variant="outline" size="sm" onClick={() => onResetFactors(user)} aria-label={`Reset sign-in factors of ${row.name}`}>
                    <ShieldOff className="size-4" aria-hidden="true" />
                    Reset sign-in
                  </Button>
                )}
                {row.canDelete && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-red-700 hover:bg-red-50 hover:text-red-800 dark:text-red-400 dark:hover:bg-red-500/10"
                    onClick={() => onDelete(user)}
                    disabled={row.self}
                    aria-label={`Delete ${row.name}`}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                    Delete
                  </Button>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
