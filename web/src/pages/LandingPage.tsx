import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  ArrowRight,
  Bell,
  Camera,
  Hammer,
  House,
  Lock,
  MessagesSquare,
  Milestone,
  PlayCircle,
  Ruler,
  ShieldCheck,
  TrendingUp,
  Trees,
  Zap,
} from 'lucide-react';
import { PublicFrame, ScrollToTop } from '../components/PublicLayout';
import { SectionHeading } from '../components/PageIntro';
import { buttonClasses } from '../components/ui/Button';
import { Skeleton } from '../components/ui/Skeleton';

// SPEC §9: the landing skeleton shows for 1000 ms before the content.
const LANDING_SKELETON_MS = 1000;

// SPEC §1, "Features listed in the public marketing copy" — one card each.
const FEATURES = [
  {
    icon: Camera,
    title: 'Photo Documentation',
    text: 'Dated photos from every site visit, sorted by category — exterior, structural, interior and finishes — in one gallery per project.',
  },
  {
    icon: ShieldCheck,
    title: 'Role-Based Access',
    text: 'Admins, builders and homeowners each see exactly what they should. Homeowners only ever see their own home.',
  },
  {
    icon: Milestone,
    title: 'Project Management',
    text: 'Track every project from planning to completion, with status and milestones that keep the whole team aligned.',
  },
  {
    icon: Lock,
    title: 'Secure Storage',
    text: 'Photos and project records are stored privately and shown only to signed-in people with access to the project.',
  },
  {
    icon: MessagesSquare,
    title: 'Communication',
    text: 'Comments, email notifications and live updates keep builders and homeowners in the loop — without the phone tag.',
  },
  {
    icon: TrendingUp,
    title: 'Progress Tracking',
    text: 'A timeline of updates and a percentage-complete bar show how far along the build is at a glance.',
  },
] as const;

// The same claims as the About page FAQ (SPEC §1).
const STATS = [
  { value: '24–48 h', label: 'from site visit to photos online' },
  { value: 'Every 2 weeks', label: 'or at each milestone, new photos' },
  { value: 'Email alerts', label: 'whenever new photos are added' },
] as const;

function LandingSkeleton() {
  return (
    <div role="status" aria-live="polite" data-testid="landing-skeleton" className="min-h-dvh bg-white dark:bg-slate-950">
      <span className="sr-only">Loading Sitecast</span>
      <div className="border-b border-slate-200/80 dark:border-slate-800">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8">
          <div className="flex items-center gap-2">
            <Skeleton className="size-8 rounded-lg" />
            <Skeleton className="h-5 w-24" />
          </div>
          <Skeleton className="h-8 w-16 rounded-lg" />
        </div>
      </div>
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2 lg:px-8">
        <div className="space-y-5">
          <Skeleton className="h-6 w-48 rounded-full" />
          <Skeleton className="h-12 w-full max-w-lg" />
          <Skeleton className="h-12 w-4/5 max-w-md" />
          <Skeleton className="h-5 w-full max-w-xl" />
          <Skeleton className="h-5 w-3/4 max-w-lg" />
          <div className="flex gap-3 pt-3">
            <Skeleton className="h-11 w-36 rounded-lg" />
            <Skeleton className="h-11 w-32 rounded-lg" />
          </div>
        </div>
        <Skeleton className="aspect-[4/3] w-full rounded-2xl" />
      </div>
      <div className="mx-auto grid max-w-7xl gap-6 px-4 pb-16 sm:grid-cols-2 sm:px-6 lg:grid-cols-3 lg:px-8">
        {FEATURES.map(({ title }) => (
          <div key={title} className="space-y-3 rounded-2xl border border-slate-100 p-6 dark:border-slate-800">
            <Skeleton className="size-10 rounded-xl" />
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        ))}
      </div>
    </div>
  );
}

const PHOTO_TILES = [
  { icon: House, tone: 'from-amber-200 to-orange-300 dark:from-amber-500/40 dark:to-orange-600/40', label: 'Exterior' },
  { icon: Hammer, tone: 'from-slate-200 to-slate-300 dark:from-slate-700 dark:to-slate-600', label: 'Structural' },
  { icon: Ruler, tone: 'from-sky-100 to-sky-200 dark:from-sky-500/30 dark:to-sky-700/30', label: 'Interior' },
  { icon: Zap, tone: 'from-yellow-100 to-amber-200 dark:from-yellow-500/30 dark:to-amber-600/30', label: 'Electrical' },
  { icon: Trees, tone: 'from-emerald-100 to-emerald-200 dark:from-emerald-500/30 dark:to-emerald-700/30', label: 'Landscaping' },
  { icon: Camera, tone: 'from-stone-200 to-stone-300 dark:from-stone-600 dark:to-stone-700', label: 'Finishes' },
] as const;

/** A drawn preview of a project page: no images to download, no real data. */
function ProductPreview() {
  return (
    <div className="relative mx-auto w-full max-w-lg lg:max-w-none">
      <div
        aria-hidden="true"
        className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-tr from-amber-200/60 via-amber-100/30 to-transparent blur-2xl dark:from-amber-500/15 dark:via-amber-500/5"
      />
      <figure
        role="img"
        aria-label="Preview of a Sitecast project page: 65% complete, six new photos"
        className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-slate-900/5 dark:border-slate-800 dark:bg-slate-900 dark:shadow-black/30"
      >
        <div className="flex items-center gap-1.5 border-b border-slate-100 bg-slate-50 px-4 py-3 dark:border-slate-800 dark:bg-slate-900/80">
          <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-700" />
          <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-700" />
          <span className="size-2.5 rounded-full bg-slate-300 dark:bg-slate-700" />
          <span className="ml-3 h-5 flex-1 rounded-md bg-white ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700" />
        </div>
        <div className="space-y-5 p-5 pb-12 sm:p-6 sm:pb-12">
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0">
              <p className="truncate text-base font-semibold text-slate-900 dark:text-white">Maple Street Residence</p>
              <p className="mt-0.5 truncate text-sm text-slate-500 dark:text-slate-400">1428 Maple Street · Lot 12</p>
            </div>
            <span className="inline-flex shrink-0 items-center rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/20">
              In Progress
            </span>
          </div>
          <div>
            <div className="mb-1.5 flex items-center justify-between text-xs">
              <span className="font-medium text-slate-600 dark:text-slate-400">Project Progress</span>
              <span className="font-semibold text-slate-900 tabular-nums dark:text-slate-100">65%</span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
              <div className="h-full w-[65%] rounded-full bg-amber-500" />
            </div>
          </div>
          <div className="grid grid-cols-3 gap-2 sm:gap-3">
            {PHOTO_TILES.map(({ icon: Icon, tone, label }) => (
              <div
                key={label}
                className={`relative flex aspect-[4/3] items-center justify-center rounded-lg bg-gradient-to-br ${tone}`}
              >
                <Icon className="size-6 text-slate-900/30 dark:text-white/40" strokeWidth={1.5} aria-hidden="true" />
                <span className="absolute bottom-1.5 left-1.5 rounded bg-white/80 px-1.5 py-0.5 text-[10px] font-medium text-slate-700 dark:bg-slate-950/70 dark:text-slate-200">
                  {label}
                </span>
              </div>
            ))}
          </div>
        </div>
      </figure>
      <div className="absolute -bottom-6 left-4 flex items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-lg sm:-left-6 dark:border-slate-700 dark:bg-slate-800">
        <span className="flex size-9 items-center justify-center rounded-full bg-amber-100 text-amber-700 dark:bg-amber-400/15 dark:text-amber-300">
          <Bell className="size-4" aria-hidden="true" />
        </span>
        <div>
          <p className="text-sm font-semibold text-slate-900 dark:text-white">6 new photos</p>
          <p className="text-xs text-slate-500 dark:text-slate-400">Framing inspection · today</p>
        </div>
      </div>
    </div>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-amber-50/70 via-white to-white dark:from-slate-900 dark:via-slate-950 dark:to-slate-950">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 opacity-[0.35] [mask-image:radial-gradient(ellipse_at_top,black,transparent_70%)] dark:opacity-[0.08]"
        style={{
          backgroundImage:
            'linear-gradient(to right, rgb(148 163 184 / 0.35) 1px, transparent 1px), linear-gradient(to bottom, rgb(148 163 184 / 0.35) 1px, transparent 1px)',
          backgroundSize: '40px 40px',
        }}
      />
      <div className="relative mx-auto grid max-w-7xl items-center gap-14 px-4 pt-14 pb-20 sm:px-6 sm:pt-20 sm:pb-24 lg:grid-cols-2 lg:gap-16 lg:px-8 lg:pt-24 lg:pb-28">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full bg-amber-100/80 px-3 py-1 text-xs font-semibold tracking-wide text-amber-800 uppercase ring-1 ring-amber-200 ring-inset dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/20">
            <span className="size-1.5 rounded-full bg-amber-500" aria-hidden="true" />
            Construction progress, live
          </p>
          <h1 className="mt-6 text-4xl leading-[1.1] font-semibold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl dark:text-white">
            Track Your Building Project&apos;s Progress
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg leading-8 text-pretty text-slate-600 lg:mx-0 dark:text-slate-300">
            Sitecast turns every site visit into dated photos, a clear status and a percentage complete — so
            homeowners always know how their new home is coming along, and builders spend less time on update calls.
          </p>
          <div className="mt-9 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Link to="/login" className={buttonClasses('primary', 'lg', 'px-6')}>
              Get Started
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
            <Link to="/login" className={buttonClasses('outline', 'lg', 'px-6')}>
              <PlayCircle className="size-4" aria-hidden="true" />
              View Demo
            </Link>
          </div>
        </div>
        <ProductPreview />
      </div>
    </section>
  );
}

function Stats() {
  return (
    <section aria-label="At a glance" className="border-y border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
      <dl className="mx-auto grid max-w-7xl gap-8 px-4 py-10 text-center sm:grid-cols-3 sm:px-6 lg:px-8">
        {STATS.map(({ value, label }) => (
          <div key={value} className="flex flex-col-reverse gap-1">
            <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
            <dd className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Features() {
  return (
    <section aria-labelledby="features-heading" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="features-heading" eyebrow="Features" title="Everything your build needs, in one place">
          From the first footing to the final walkthrough, Sitecast keeps the whole project visible to the people who
          care about it.
        </SectionHeading>
        <ul className="mt-14 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 lg:gap-6">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li
              key={title}
              data-testid="feature-card"
              className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-amber-200 hover:shadow-md dark:border-slate-800 dark:bg-slate-900 dark:hover:border-amber-500/30"
            >
              <span className="flex size-11 items-center justify-center rounded-xl bg-amber-100 text-amber-700 ring-1 ring-amber-200/60 transition group-hover:bg-amber-500 group-hover:text-slate-950 dark:bg-amber-400/10 dark:text-amber-300 dark:ring-amber-400/20">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function CallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="px-4 pb-20 sm:px-6 sm:pb-28 lg:px-8">
      <div className="relative mx-auto max-w-7xl overflow-hidden rounded-3xl bg-slate-900 px-6 py-14 text-center shadow-xl sm:px-12 sm:py-20 dark:bg-slate-900 dark:ring-1 dark:ring-slate-800">
        <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-80 rounded-full bg-amber-500/25 blur-3xl" />
        <div aria-hidden="true" className="pointer-events-none absolute -bottom-32 -left-24 size-80 rounded-full bg-amber-500/10 blur-3xl" />
        <div className="relative">
          <h2 id="cta-heading" className="text-3xl font-semibold tracking-tight text-balance text-white sm:text-4xl">
            Ready to see your build come together?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base leading-7 text-slate-300 sm:text-lg">
            Sign in to follow your project — or try one of the demo accounts to look around first.
          </p>
          <Link
            to="/login"
            className={buttonClasses('secondary', 'lg', 'mt-9 px-7 focus-visible:ring-offset-slate-900 dark:focus-visible:ring-offset-slate-900')}
          >
            Get Started Now
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </section>
  );
}

export function LandingPage() {
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const timer = window.setTimeout(() => setLoading(false), LANDING_SKELETON_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (loading) return <LandingSkeleton />;

  return (
    <PublicFrame>
      <ScrollToTop />
      <Hero />
      <Stats />
      <Features />
      <CallToAction />
    </PublicFrame>
  );
}
