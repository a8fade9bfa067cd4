import { NavLink } from 'react-router';
import { CalendarDays, FileText } from 'lucide-react';
import { cn } from '../lib/cn';
import { slugify, splitPlaceholders } from '../lib/placeholders';
import { COOKIES, LEGAL_DOCUMENTS, PRIVACY, TERMS, type LegalDocument } from './legalDocuments';

/** Copy with its "[placeholders]" marked, so unfilled values stand out. */
function Copy({ text }: { text: string }) {
  return (
    <>
      {splitPlaceholders(text).map((part, i) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <span
            key={i}
            className="rounded bg-amber-100/80 px-0.5 font-medium text-amber-900 dark:bg-amber-400/15 dark:text-amber-200"
          >
            {part.text}
          </span>
        ),
      )}
    </>
  );
}

const sideLink =
  'block rounded-md px-3 py-1.5 text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';

function LegalPage({ doc }: { doc: LegalDocument }) {
  const sections = doc.sections.map((section, index) => ({
    ...section,
    number: index + 1,
    id: slugify(section.heading),
  }));

  return (
    <>
      <section className="border-b border-slate-200 bg-gradient-to-b from-amber-50/70 to-white dark:border-slate-800 dark:from-slate-900 dark:to-slate-950">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
          <p className="inline-flex items-center gap-2 text-sm font-semibold tracking-wider text-amber-700 uppercase dark:text-amber-400">
            <FileText className="size-4" aria-hidden="true" />
            Legal
          </p>
          <h1 className="mt-3 text-3xl font-semibold tracking-tight text-slate-900 sm:text-5xl dark:text-white">{doc.title}</h1>
          <p className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-500 dark:text-slate-400">
            <CalendarDays className="size-4" aria-hidden="true" />
            <span>
              Last updated: <Copy text="[date]" />
            </span>
            <span aria-hidden="true">·</span>
            <span>
              Effective: <Copy text="[date]" />
            </span>
          </p>
          <p className="mt-5 max-w-3xl text-base leading-7 text-slate-600 sm:text-lg dark:text-slate-300">
            <Copy text={doc.summary} />
          </p>
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-16 lg:px-8">
        <aside>
          <div className="space-y-8 lg:sticky lg:top-24">
            <nav aria-label="On this page" className="hidden lg:block">
              <h2 className="px-3 text-xs font-semibold tracking-wider text-slate-500 uppercase dark:text-slate-400">
                On this page
              </h2>
              <ol className="mt-3 space-y-0.5 border-l border-slate-200 dark:border-slate-800">
                {sections.map(({ id, heading, number }) => (
                  <li key={id}>
                    <a
                      href={`#${id}`}
                      className={cn(
                        sideLink,
                        '-ml-px rounded-l-none border-l border-transparent text-slate-600 hover:border-slate-400 hover:text-slate-900 dark:text-slate-400 dark:hover:border-slate-500 dark:hover:text-white',
                      )}
                    >
                      {number}. {heading}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>
            <nav aria-label="Policies">
              <h2 className="px-3 text-xs font-semibold tracking-wider text-slate-500 uppercase dark:text-slate-400">
                Policies
              </h2>
              <ul className="mt-3 flex flex-wrap gap-1 lg:block lg:space-y-0.5">
                {LEGAL_DOCUMENTS.map((other) => (
                  <li key={other.path}>
                    <NavLink
                      to={other.path}
                      className={({ isActive }) =>
                        cn(
                          sideLink,
                          isActive
                            ? 'bg-amber-50 font-medium text-amber-800 dark:bg-amber-400/10 dark:text-amber-300'
                            : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white',
                        )
                      }
                    >
                      {other.navLabel}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </aside>

        <article className="max-w-[68ch]">
          {sections.map(({ id, heading, number, paragraphs, list }) => (
            <section key={id} aria-labelledby={id} className="border-b border-slate-200 py-8 first:pt-0 last:border-b-0 dark:border-slate-800">
              <h2 id={id} className="scroll-mt-24 text-xl font-semibold tracking-tight text-slate-900 dark:text-white">
                <span className="mr-2 text-amber-700 tabular-nums dark:text-amber-400">{number}.</span>
                {heading}
              </h2>
              {paragraphs.map((text) => (
                <p key={text} className="mt-4 text-base leading-7 text-slate-600 dark:text-slate-300">
                  <Copy text={text} />
                </p>
              ))}
              {list && (
                <ul className="mt-4 space-y-2 pl-5 text-base leading-7 text-slate-600 marker:text-amber-500 dark:text-slate-300 list-disc">
                  {list.map((item) => (
                    <li key={item} className="pl-1">
                      <Copy text={item} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </article>
      </div>
    </>
  );
}

export function TermsOfServicePage() {
  return <LegalPage doc={TERMS} />;
}

export function PrivacyPolicyPage() {
  return <LegalPage doc={PRIVACY} />;
}

export function CookiePolicyPage() {
  return <LegalPage doc={COOKIES} />;
}
