import { Link } from 'react-router';
import { ArrowRight, Bell, Camera, ChevronDown, Eye, HardHat, HeartHandshake, Lock, TrendingUp, Upload } from 'lucide-react';
import { PageIntro, SectionHeading } from '../components/PageIntro';
import { buttonClasses } from '../components/ui/Button';

const VALUES = [
  {
    icon: Eye,
    title: 'Transparency',
    text: 'Homeowners deserve to see their home being built, not just hear about it. Photos show what words leave out.',
  },
  {
    icon: HardHat,
    title: 'Respect for the craft',
    text: 'Good building is careful work. We make it easy for builders to show that care without adding to their day.',
  },
  {
    icon: Lock,
    title: 'Privacy by default',
    text: 'Your home is yours. Each homeowner sees only their own project, and builders see only the projects they work on.',
  },
  {
    icon: HeartHandshake,
    title: 'Partnership',
    text: 'A build goes better when everyone works from the same picture. Sitecast gives builders and owners exactly that.',
  },
] as const;

const STEPS = [
  {
    icon: Camera,
    title: 'The site is visited',
    text: 'Your builder photographs the work at each visit — framing, roofing, interiors, finishes and everything in between.',
  },
  {
    icon: Upload,
    title: 'Photos are uploaded',
    text: 'Within 24–48 hours of the visit, the photos are uploaded to your project, dated and sorted by category.',
  },
  {
    icon: TrendingUp,
    title: 'Progress is updated',
    text: 'The project status and percentage complete are updated, so you can see at a glance how far along the build is.',
  },
  {
    icon: Bell,
    title: 'You are notified',
    text: 'You get an email when new photos arrive. Sign in to browse them, mark favourites, and download the ones you love.',
  },
] as const;

// SPEC §1: the claims the FAQ states.
const FAQ = [
  {
    question: 'How often are photos updated?',
    answer: 'Photos are updated about every two weeks, or whenever the build reaches a milestone.',
  },
  {
    question: 'How soon after a site visit can I see the photos?',
    answer: 'Photos are uploaded within 24–48 hours of a site visit.',
  },
  {
    question: 'Will I know when new photos are added?',
    answer: 'Yes. An email notification is sent to you whenever new photos are added to your project.',
  },
  {
    question: 'Can I download and share photos?',
    answer: 'Yes. Photos can be downloaded and shared with family and friends.',
  },
  {
    question: 'Can I comment on photos?',
    answer: 'Yes. Comments on photos are possible, so you can ask your builder about what you see.',
  },
  {
    question: 'Who can see my project?',
    answer:
      'Only you, your builder and Sitecast administrators. Each homeowner sees only their own project, never anyone else’s.',
  },
] as const;

export function AboutPage() {
  return (
    <>
      <PageIntro eyebrow="About Sitecast" title="Building trust, one photo at a time.">
        Sitecast gives homeowners a clear, current view of their build — and gives builders a simple way to show the
        quality of their work.
      </PageIntro>

      <section aria-labelledby="story-heading" className="py-16 sm:py-24">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:gap-16 lg:px-8">
          <div>
            <SectionHeading id="story-heading" eyebrow="Our story" title="Born on the job site" align="left" />
            <div className="mt-6 space-y-4 text-base leading-7 text-slate-600 dark:text-slate-400">
              <p>
                Building a home is one of the biggest projects most families ever take on — and for most of it, they
                can’t see what’s happening. Updates arrive as phone calls, scattered texts and the occasional blurry
                picture.
              </p>
              <p>
                Sitecast started with a simple idea: if builders already take photos on every visit, those photos
                should reach the homeowner in an organised, dated gallery, alongside an honest status and a percentage
                complete.
              </p>
              <p>
                Today builders use Sitecast to document every stage of construction, and homeowners use it to follow
                their own project from anywhere — with fewer calls, fewer surprises and more confidence on both sides.
              </p>
            </div>
          </div>
          <div className="rounded-3xl border border-slate-200 bg-gradient-to-br from-amber-50 to-white p-8 sm:p-10 dark:border-slate-800 dark:from-slate-900 dark:to-slate-950">
            <dl className="grid grid-cols-2 gap-x-6 gap-y-8">
              {[
                { value: '24–48 h', label: 'Site visit to photos online' },
                { value: '~2 weeks', label: 'Between photo updates' },
                { value: '3 roles', label: 'Admin, builder, homeowner' },
                { value: '1 place', label: 'For every photo of your build' },
              ].map(({ value, label }) => (
                <div key={label} className="flex flex-col-reverse gap-1">
                  <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
                  <dd className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </section>

      <section aria-labelledby="values-heading" className="border-y border-slate-200 bg-slate-50 py-16 sm:py-24 dark:border-slate-800 dark:bg-slate-900/40">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="values-heading" eyebrow="Our values" title="What we stand for" />
          <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                <span className="flex size-10 items-center justify-center rounded-xl bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-base font-semibold text-slate-900 dark:text-white">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="how-heading" className="py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="how-heading" eyebrow="How it works" title="From site visit to your inbox" />
          <ol className="mt-12 grid gap-8 sm:grid-cols-2 lg:grid-cols-4 lg:gap-6">
            {STEPS.map(({ icon: Icon, title, text }, index) => (
              <li key={title} className="flex items-start gap-4 lg:block">
                <div className="flex items-center gap-3">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-900 text-sm font-semibold text-white dark:bg-amber-500 dark:text-slate-950">
                    {index + 1}
                  </span>
                  {index < STEPS.length - 1 && (
                    <span aria-hidden="true" className="hidden h-px flex-1 bg-slate-200 lg:block dark:bg-slate-800" />
                  )}
                </div>
                <div className="min-w-0 pt-2 lg:pt-0">
                  <h3 className="flex items-center gap-2 text-base font-semibold text-slate-900 lg:mt-5 dark:text-white">
                    <Icon className="size-4 text-amber-600 dark:text-amber-400" aria-hidden="true" />
                    {title}
                  </h3>
                  <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="faq-heading" className="border-t border-slate-200 bg-slate-50 py-16 sm:py-24 dark:border-slate-800 dark:bg-slate-900/40">
        <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="faq-heading" eyebrow="FAQ" title="Frequently asked questions" />
          <div className="mt-10 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {FAQ.map(({ question, answer }) => (
              <details key={question} className="group" data-testid="faq-item">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left text-base font-medium text-slate-900 select-none hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset sm:px-6 dark:text-white dark:hover:bg-slate-800/60 [&::-webkit-details-marker]:hidden">
                  {question}
                  <ChevronDown
                    className="size-5 shrink-0 text-slate-400 transition-transform duration-200 group-open:rotate-180"
                    aria-hidden="true"
                  />
                </summary>
                <p className="px-5 pb-5 text-sm leading-6 text-slate-600 sm:px-6 dark:text-slate-400">{answer}</p>
              </details>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="about-cta-heading" className="py-16 sm:py-24">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6 lg:px-8">
          <h2 id="about-cta-heading" className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
            See your project the way your builder does.
          </h2>
          <p className="mt-4 text-base leading-7 text-slate-600 dark:text-slate-400">
            Sign in to follow your build, or try a demo account to explore Sitecast.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/login" className={buttonClasses('primary', 'lg', 'px-6')}>
              Get Started
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
            <Link to="/contact" className={buttonClasses('outline', 'lg', 'px-6')}>
              Contact Us
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
