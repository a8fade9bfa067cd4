import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Clock, Mail, Phone, Send } from 'lucide-react';
import { sendContactMessage, type ContactOutcome } from '../api/contact';
import { contactPayload, contactSchema, type ContactValues } from '../lib/validation';
import { MAX_LENGTH } from '../lib/limits';
import { PageIntro } from '../components/PageIntro';
import { Button } from '../components/ui/Button';
import { Field, TextAreaField } from '../components/ui/Field';
import { Notice } from '../components/ui/Notice';

const CONTACT_EMAIL = 'support@sitecast.app';
const CONTACT_PHONE = '(555) 123-4567';
const CONTACT_PHONE_HREF = 'tel:+15551234567';

const FIELDS = ['name', 'email', 'phone', 'message'] as const;
const EMPTY: ContactValues = { name: '', email: '', phone: '', message: '' };

const DETAILS = [
  {
    icon: Mail,
    title: 'Email',
    body: (
      <a
        href={`mailto:${CONTACT_EMAIL}`}
        className="rounded font-medium text-amber-700 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-amber-400"
      >
        {CONTACT_EMAIL}
      </a>
    ),
    note: 'We reply to every message.',
  },
  {
    icon: Phone,
    title: 'Phone',
    body: (
      <a
        href={CONTACT_PHONE_HREF}
        className="rounded font-medium text-amber-700 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-amber-400"
      >
        {CONTACT_PHONE}
      </a>
    ),
    note: 'For project questions and support.',
  },
  {
    icon: Clock,
    title: 'Office hours',
    body: <span className="font-medium text-slate-900 dark:text-white">Monday–Friday, 8am–6pm</span>,
    note: 'Messages sent after hours are answered the next business day.',
  },
] as const;

export function ContactPage() {
  const [outcome, setOutcome] = useState<ContactOutcome | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: EMPTY,
    // SPEC §5: validate on submit, then re-validate on change.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    const result = await sendContactMessage(contactPayload(values));
    setOutcome(result);
    if (result.status === 'success') {
      reset(EMPTY);
      return;
    }
    for (const { field, message } of result.fields) {
      if ((FIELDS as readonly string[]).includes(field)) {
        setError(field as (typeof FIELDS)[number], { type: 'server', message });
      }
    }
  });

  return (
    <>
      <PageIntro eyebrow="Contact" title="Contact Us">
        Questions about your build, your account or Sitecast for your company? Send us a message and we&apos;ll get back
        to you.
      </PageIntro>

      <section className="py-14 sm:py-20">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-5 lg:gap-12 lg:px-8">
          <aside aria-labelledby="contact-details-heading" className="order-2 lg:order-1 lg:col-span-2">
            <h2 id="contact-details-heading" className="text-xl font-semibold tracking-tight text-slate-900 dark:text-white">
              Get in touch
            </h2>
            <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">
              Homeowners: for questions about a specific photo or date, your builder is usually the fastest answer.
              For everything else, we&apos;re here.
            </p>
            <ul className="mt-8 space-y-4">
              {DETAILS.map(({ icon: Icon, title, body, note }) => (
                <li
                  key={title}
                  className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
                >
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-amber-100 text-amber-700 dark:bg-amber-400/10 dark:text-amber-300">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 text-sm">
                    <h3 className="text-xs font-semibold tracking-wider text-slate-500 uppercase dark:text-slate-400">{title}</h3>
                    <p className="mt-1 break-words">{body}</p>
                    <p className="mt-1 text-slate-500 dark:text-slate-400">{note}</p>
                  </div>
                </li>
              ))}
            </ul>
          </aside>

          <div className="order-1 lg:order-2 lg:col-span-3">
            <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
              <h2 className="text-xl font-semibold tracking-tight text-slate-900 dark:text-white">Send a message</h2>
              <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">All fields are required unless marked optional.</p>

              <form onSubmit={onSubmit} noValidate aria-label="Contact form" className="mt-6 space-y-5">
                <div className="grid gap-5 sm:grid-cols-2">
                  <Field
                    label="Name"
                    maxLength={MAX_LENGTH.name}
                    autoComplete="name"
                    placeholder="Jane Doe"
                    disabled={isSubmitting}
                    error={errors.name?.message}
                    {...register('name')}
                  />
                  <Field
                    label="Email"
                    maxLength={MAX_LENGTH.email}
                    type="email"
                    autoComplete="email"
                    placeholder="you@example.com"
                    disabled={isSubmitting}
                    error={errors.email?.message}
                    {...register('email')}
                  />
                </div>
                <Field
                  label="Phone"
                  maxLength={MAX_LENGTH.phone}
                  type="tel"
                  autoComplete="tel"
                  placeholder="(555) 123-4567"
                  disabled={isSubmitting}
                  error={errors.phone?.message}
                  labelAside={<span className="text-xs text-slate-500 dark:text-slate-400">Optional</span>}
                  {...register('phone')}
                />
                <TextAreaField
                  label="Message"
                  maxLength={MAX_LENGTH.contactMessage}
                  rows={6}
                  placeholder="How can we help?"
                  disabled={isSubmitting}
                  error={errors.message?.message}
                  {...register('message')}
                />
                {outcome && (
                  // Next to the button, so it is in view on a phone right after sending.
                  <Notice tone={outcome.status === 'success' ? 'success' : 'error'}>
                    <span data-testid="contact-banner">{outcome.message}</span>
                  </Notice>
                )}
                <div className="flex flex-col-reverse items-stretch gap-3 pt-1 sm:flex-row sm:items-center sm:justify-between">
                  <p className="text-xs text-slate-500 dark:text-slate-400">
                    We only use your details to answer your message.
                  </p>
                  <Button type="submit" size="lg" className="px-6" disabled={isSubmitting} loading={isSubmitting}>
                    {!isSubmitting && <Send className="size-4" aria-hidden="true" />}
                    {isSubmitting ? 'Sending...' : 'Send Message'}
                  </Button>
                </div>
              </form>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
