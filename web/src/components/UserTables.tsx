import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { FolderOpen, Pencil, Search, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { Profile, Role, UserListing } from '../protocol/types';
import { cn } from '../lib/cn';
import { displayName } from '../lib/names';
import { matchesSearch, ROLE_LABELS } from '../lib/people';
import { useAppStore } from '../store';
import { toastRequestError } from '../sync/errors';
import { commands } from '../sync/commands';
import { Avatar } from './Avatar';
import { ConfirmDialog } from './dialogs/ConfirmDialog';
import { EditUserDialog } from './dialogs/EditUserDialog';
import { buttonClasses } from './ui/Button';

const EMPTY_TEXT: Record<Role, string> = {
  homeowner: 'No homeowners found matching your search.',
  builder: 'No builders found matching your search.',
  admin: 'No administrators found matching your search.',
};

const iconButton =
  'inline-flex size-8 items-center justify-center rounded-lg text-slate-500 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:pointer-events-none disabled:opacity-35 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

export function SearchBox({ value, onChange, label }: { value: string; onChange: (v: string) => void; label: string }) {
  return (
    <div className="relative w-full sm:max-w-xs">
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <input
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Search by name or email..."
        aria-label={label}
        className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      />
    </div>
  );
}

/**
 * One searchable user table of the dashboards (SPEC §2 Tables). Columns and actions
 * follow the role listed and who is looking: builders see no Builder column and no
 * delete; an admin cannot delete their own row.
 */
export function UserTable({ role, listings, viewer }: { role: Role; listings: UserListing[]; viewer: Profile }) {
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<Profile | null>(null);
  const [deleting, setDeleting] = useState<Profile | null>(null);
  const [busy, setBusy] = useState(false);
  const online = useAppStore((s) => s.online);
  const isAdmin = viewer.role === 'admin';
  const rows = useMemo(() => listings.filter((l) => matchesSearch(l.user, query)), [listings, query]);
  const showProjects = role !== 'admin';
  const showBuilder = role === 'homeowner' && isAdmin;
  const label = role === 'admin' ? 'administrators' : `${role}s`;

  const confirmDelete = async () => {
    if (!deleting) return;
    const person = displayName(deleting);
    setBusy(true);
    try {
      await commands.deleteUser(deleting.id);
      toast.success(`${ROLE_LABELS[deleting.role]} ${person} deleted successfully.`);
      setDeleting(null);
    } catch (err) {
      toastRequestError(err, `Failed to delete ${person}.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4">
      <SearchBox value={query} onChange={setQuery} label={`Search ${label} by name or email`} />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50/80 text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">Name</th>
              <th scope="col" className="hidden px-4 py-3 font-medium md:table-cell">Email</th>
              <th scope="col" className="hidden px-4 py-3 font-medium lg:table-cell">Phone</th>
              {showProjects && <th scope="col" className="hidden px-4 py-3 text-center font-medium sm:table-cell">Projects</th>}
              {showBuilder && <th scope="col" className="hidden px-4 py-3 font-medium lg:table-cell">Builder</th>}
              <th scope="col" className="px-4 py-3 text-right font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-4 py-12 text-center text-sm text-slate-500 dark:text-slate-400">
                  {EMPTY_TEXT[role]}
                </td>
              </tr>
            ) : (
              rows.map(({ user, projectCount, builderName }) => {
                const name = displayName(user);
                const self = user.id === viewer.id;
                const canEdit = isAdmin || (viewer.role === 'builder' && user.role === 'homeowner');
                const projectsHref =
                  role === 'homeowner' ? `/homeowner/${user.id}/projects` : `/builder/${user.id}/projects`;
                return (
                  <tr key={user.id} data-testid="user-row" className="transition-colors hover:bg-slate-50/70 dark:hover:bg-slate-800/40">
                    <td className="max-w-0 px-4 py-3 md:max-w-72">
                      <div className="flex min-w-0 items-center gap-3">
                        <Avatar name={name} size="sm" online={self || Boolean(online[user.id])} />
                        <div className="min-w-0">
                          <p className="truncate font-medium text-slate-900 dark:text-white">
                            {name}
                            {self && <span className="ml-1.5 text-xs font-normal text-slate-400">(you)</span>}
                          </p>
                          <p className="truncate text-xs text-slate-500 md:hidden dark:text-slate-400">{user.email}</p>
                        </div>
                      </div>
                    </td>
                    <td className="hidden max-w-64 truncate px-4 py-3 text-slate-600 md:table-cell dark:text-slate-300">{user.email}</td>
                    <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 lg:table-cell dark:text-slate-300">
                      {user.phone || <span className="text-slate-400">—</span>}
                    </td>
                    {showProjects && (
                      <td className="hidden px-4 py-3 text-center tabular-nums text-slate-700 sm:table-cell dark:text-slate-200">{projectCount}</td>
                    )}
                    {showBuilder && (
                      <td className="hidden max-w-48 truncate px-4 py-3 text-slate-600 lg:table-cell dark:text-slate-300">
                        {builderName || <span className="text-slate-400">—</span>}
                      </td>
                    )}
                    <td className="w-px px-4 py-3 whitespace-nowrap">
                      <div className="flex items-center justify-end gap-1">
                        {role !== 'admin' && (
                          <Link
                            to={projectsHref}
                            className={cn(buttonClasses('outline', 'sm'), 'mr-1')}
                            aria-label={`${role === 'homeowner' ? 'View Projects' : 'View All Projects'} of ${name}`}
                          >
                            <FolderOpen className="size-4" aria-hidden="true" />
                            <span className="hidden sm:inline">{role === 'homeowner' ? 'View Projects' : 'View All Projects'}</span>
                          </Link>
                        )}
                        {canEdit && (
                          <button type="button" className={iconButton} onClick={() => setEditing(user)} aria-label={`Edit ${name}`}>
                            <Pencil className="size-4" aria-hidden="true" />
                          </button>
                        )}
                        {isAdmin && (
                          <button
                            type="button"
                            className={cn(iconButton, 'hover:bg-red-50 hover:text-red-600 dark:hover:bg-red-500/10 dark:hover:text-red-400')}
                            onClick={() => setDeleting(user)}
                            disabled={self}
                            aria-label={`Delete ${name}`}
                            title={self ? 'You cannot delete your own account.' : undefined}
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
      {editing && <EditUserDialog key={editing.id} user={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        busy={busy}
        onConfirm={() => void confirmDelete()}
        confirmLabel="Delete"
        description={
          <>
            This action cannot be undone. This will permanently delete{' '}
            <strong className="font-semibold text-slate-700 dark:text-slate-200">{deleting ? displayName(deleting) : 'this user'}</strong>{' '}
            and all associated projects.
          </>
        }
      />
    </div>
  );
}
