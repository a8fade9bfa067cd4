import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Building2, ChevronLeft, ChevronRight, FolderOpen, Pencil, Plus, Trash2, UserPlus } from 'lucide-react';
import type { Company, Profile } from '../../protocol/types';
import { companyAbilities, companyMatches, membersSummary, projectsSummary } from '../../lib/companyRules';
import { pageOf } from '../../lib/userTable';
import { sortCompanies, useAppStore } from '../../store';
import { CompanyNameDialog } from '../dialogs/CompanyNameDialog';
import { Button, buttonClasses } from '../ui/Button';
import { SearchBox } from '../ui/SearchBox';
import { Skeleton } from '../ui/Skeleton';
import { CompanyDialogs, type CompanyAction } from './CompanyDialogs';
import { MemberList } from './MemberList';

/** Companies per page: each shows its people, so fewer than the user tables' rows. */
const COMPANIES_PER_PAGE = 10;

/** One company: its name, how many people and projects, its actions, and its people. */
export function CompanyCard({ company, viewer, onAction }: { company: Company; viewer: Profile; onAction: (action: CompanyAction) => void }) {
  const abilities = companyAbilities(viewer, company);
  return (
    <section
      aria-label={company.name}
      data-testid="company-card"
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:px-6 lg:flex-row lg:items-center lg:justify-between dark:border-slate-800">
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
            <Building2 className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h3 className="truncate text-base font-semibold text-slate-900 dark:text-white">{company.name}</h3>
            <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="company-counts">
              {membersSummary(company)} · {projectsSummary(company)}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link
            to={`/builder/${company.id}/projects`}
            className={buttonClasses('outline', 'sm')}
            aria-label={`View projects of ${company.name}`}
          >
            <FolderOpen className="size-4" aria-hidden="true" />
            View projects
          </Link>
          {abilities.invite.length > 0 && (
            <Button variant="outline" size="sm" onClick={() => onAction({ kind: 'invite', companyId: company.id })} aria-label={`Invite a member to ${company.name}`}>
              <UserPlus className="size-4" aria-hidden="true" />
              Invite
            </Button>
          )}
          {abilities.rename && (
            <Button variant="outline" size="sm" onClick={() => onAction({ kind: 'rename', companyId: company.id })} aria-label={`Rename ${company.name}`}>
              <Pencil className="size-4" aria-hidden="true" />
              Rename
            </Button>
          )}
          {abilities.delete && (
            <Button
              variant="outline"
              size="sm"
              className="text-red-700 hover:bg-red-50 hover:text-red-800 dark:text-red-400 dark:hover:bg-red-500/10"
              onClick={() => onAction({ kind: 'delete', companyId: company.id })}
              aria-label={`Delete ${company.name}`}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              Delete
            </Button>
          )}
        </div>
      </div>
      <MemberList
        company={company}
        viewer={viewer}
        abilities={abilities}
        onChangeRole={(m) => onAction({ kind: 'role', companyId: company.id, memberId: m.id })}
        onRemove={(m) => onAction({ kind: 'remove', companyId: company.id, memberId: m.id })}
      />
    </section>
  );
}

/**
 * The admin dashboard's Companies tab (docs/FEATURES.md, "Builder companies"): every
 * builder company with its people, searchable by the company's name or a member's name or
 * email, and what an admin does with them: make one, rename it, invite and manage its
 * people, delete it.
 */
export function CompaniesTab({ viewer }: { viewer: Profile }) {
  const byId = useAppStore((s) => s.companies);
  const loaded = useAppStore((s) => s.companiesLoaded);
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<CompanyAction | null>(null);
  const matching = useMemo(() => sortCompanies(byId).filter((c) => companyMatches(c, query)), [byId, query]);
  const shown = pageOf(matching, page, COMPANIES_PER_PAGE);
  const total = Object.keys(byId).length;

  const search = (value: string) => {
    setQuery(value);
    setPage(0);
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox value={query} onChange={search} label="Search companies by name, or their people by name or email" />
        <Button variant="secondary" onClick={() => setCreating(true)}>
          <Plus className="size-4" aria-hidden="true" />
          New company
        </Button>
      </div>
      {!loaded ? (
        <div className="space-y-3" role="status" aria-label="Loading companies">
          <Skeleton className="h-40 w-full rounded-2xl" />
          <Skeleton className="h-40 w-full rounded-2xl" />
        </div>
      ) : shown.rows.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-700 dark:bg-slate-900">
          <Building2 className="size-8 text-slate-400" aria-hidden="true" />
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {total === 0 ? 'No companies yet. A builder company holds its projects and the people who work on them.' : 'No companies found matching your search.'}
          </p>
          {total === 0 && (
            <Button variant="outline" size="sm" onClick={() => setCreating(true)}>
              <Plus className="size-4" aria-hidden="true" />
              New company
            </Button>
          )}
        </div>
      ) : (
        <div className="space-y-4">
          {shown.rows.map((company) => (
            <CompanyCard key={company.id} company={company} viewer={viewer} onAction={setAction} />
          ))}
        </div>
      )}
      {shown.pages > 1 && (
        <nav aria-label="Pages of companies" className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600 dark:text-slate-300">
          <p aria-live="polite">
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
      {/* A new company is found at once: the search shows it, ready for its first invitation. */}
      {creating && <CompanyNameDialog onClose={() => setCreating(false)} onSaved={(company) => search(company.name)} />}
      <CompanyDialogs action={action} viewer={viewer} onClose={() => setAction(null)} />
    </div>
  );
}
