import { useState } from 'react';
import { Link } from 'react-router';
import { ArrowRight, Building2, Pencil, UserPlus } from 'lucide-react';
import { companyAbilities, membersSummary, yourRole } from '../lib/companyRules';
import { useAppStore } from '../store';
import { PageHeader } from '../components/PageHeader';
import { LoadFailed, useFirstLoadFailed } from '../components/LoadFailed';
import { CompanyDialogs, type CompanyAction } from '../components/companies/CompanyDialogs';
import { MemberList } from '../components/companies/MemberList';
import { Button, buttonClasses } from '../components/ui/Button';
import { Skeleton } from '../components/ui/Skeleton';

function CompanySkeleton() {
  return (
    <div role="status" className="space-y-8">
      <span className="sr-only">Loading your company…</span>
      <div className="space-y-3">
        <Skeleton className="h-8 w-64 max-w-full" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <Skeleton className="h-72 w-full rounded-2xl" />
    </div>
  );
}

/** A builder outside any company (removed from theirs): nothing to show but why. */
function NoCompany() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900" data-testid="no-company">
      <span className="flex size-12 items-center justify-center rounded-2xl bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        <Building2 className="size-6" aria-hidden="true" />
      </span>
      <div className="space-y-1.5">
        <h1 className="text-xl font-semibold text-slate-900 dark:text-white">You're not part of a company</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          A builder works on their company's projects. Until a company's owner or an administrator invites you into one, you have no projects to see.
        </p>
      </div>
      <Link to="/dashboard" className={buttonClasses('outline', 'sm')}>
        Back to the dashboard
      </Link>
    </div>
  );
}

/**
 * /company (docs/FEATURES.md, "Builder companies"): a builder's company and its people.
 * Its owners manage everything here (rename it, invite anyone, change roles, remove
 * people); managers invite crew; crew see who they work with.
 */
export function CompanyPage() {
  const user = useAppStore((s) => s.user);
  const loaded = useAppStore((s) => s.companiesLoaded);
  const company = useAppStore((s) => (s.user?.companyId ? s.companies[s.user.companyId] : undefined));
  const failed = useFirstLoadFailed();
  const [action, setAction] = useState<CompanyAction | null>(null);

  if (!user) return null;
  if (failed) return <LoadFailed message="Failed to load data. Please try again later." />;
  if (!loaded) return <CompanySkeleton />;
  if (!company) return <NoCompany />;

  const abilities = companyAbilities(user, company);
  return (
    <div className="space-y-8">
      <PageHeader
        title={company.name}
        subtitle={yourRole(user)}
        actions={
          <>
            {abilities.rename && (
              <Button variant="outline" onClick={() => setAction({ kind: 'rename', companyId: company.id })}>
                <Pencil className="size-4" aria-hidden="true" />
                Rename
              </Button>
            )}
            {abilities.invite.length > 0 && (
              <Button variant="secondary" onClick={() => setAction({ kind: 'invite', companyId: company.id })}>
                <UserPlus className="size-4" aria-hidden="true" />
                Invite member
              </Button>
            )}
          </>
        }
      />
      <section aria-labelledby="people-heading" className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-slate-100 px-5 py-4 sm:px-6 dark:border-slate-800">
          <div className="min-w-0">
            <h2 id="people-heading" className="text-base font-semibold text-slate-900 dark:text-white">
              People
            </h2>
            <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{membersSummary(company)}</p>
          </div>
          <Link
            to="/projects"
            className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-amber-700 hover:text-amber-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-amber-400 dark:hover:text-amber-300"
          >
            Your projects
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
        <MemberList
          company={company}
          viewer={user}
          abilities={abilities}
          onChangeRole={(m) => setAction({ kind: 'role', companyId: company.id, memberId: m.id })}
          onRemove={(m) => setAction({ kind: 'remove', companyId: company.id, memberId: m.id })}
        />
      </section>
      <CompanyDialogs action={action} viewer={user} onClose={() => setAction(null)} />
    </div>
  );
}
