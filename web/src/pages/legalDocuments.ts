// Copy for the legal pages. SPEC §1: these hold placeholder text with unfilled dates and
// contacts; every "[bracketed]" value is a blank for the business to fill in.

export interface LegalSection {
  heading: string;
  paragraphs: string[];
  list?: string[];
}

export interface LegalDocument {
  path: string;
  navLabel: string;
  title: string;
  summary: string;
  sections: LegalSection[];
}

const CONTACT_SECTION: LegalSection = {
  heading: 'Contact us',
  paragraphs: [
    'If you have any questions about this document, contact us at [contact email] or write to us at [company address]. You can also reach us by phone at [contact phone].',
  ],
};

export const TERMS: LegalDocument = {
  path: '/terms-of-service',
  navLabel: 'Terms of Service',
  title: 'Terms of Service',
  summary:
    'These terms govern your use of Sitecast, the construction-progress photo service operated by [company name]. Please read them carefully.',
  sections: [
    {
      heading: 'Acceptance of these terms',
      paragraphs: [
        'By creating an account or using Sitecast, you agree to these Terms of Service and to our Privacy Policy. If you use Sitecast on behalf of a company, you confirm that you may accept these terms for that company.',
        'If you do not agree to these terms, do not use the service.',
      ],
    },
    {
      heading: 'The service',
      paragraphs: [
        'Sitecast lets builders and administrators document home-building projects with photos, status and progress, and lets homeowners follow their own projects. Features may change over time as we improve the service.',
      ],
    },
    {
      heading: 'Accounts and roles',
      paragraphs: [
        'Each account has a role — administrator, builder or homeowner — that decides what it can see and do. You are responsible for keeping your password secure and for all activity under your account.',
      ],
      list: [
        'Give accurate information when you sign up and keep it up to date.',
        'Do not share your account or let others sign in as you.',
        'Tell us promptly at [contact email] if you suspect unauthorised use of your account.',
      ],
    },
    {
      heading: 'Photos and other content',
      paragraphs: [
        'You keep ownership of the photos and information you upload. You grant [company name] a limited licence to store, process and display that content to the people who have access to the project, solely to provide the service.',
        'You must have the right to upload the content you share, and it must not be unlawful, misleading or infringe the rights of others.',
      ],
    },
    {
      heading: 'Acceptable use',
      paragraphs: ['When using Sitecast you agree not to:'],
      list: [
        'access projects, photos or accounts you are not authorised to see;',
        'interfere with or disrupt the service or its security;',
        'upload malicious code or content that is unlawful or offensive;',
        'use the service to send unsolicited messages.',
      ],
    },
    {
      heading: 'Availability and changes',
      paragraphs: [
        'We aim to keep Sitecast available at all times but do not guarantee uninterrupted access. We may update these terms; when we make material changes we will notify you by email or in the app before they take effect on [date].',
      ],
    },
    {
      heading: 'Limitation of liability',
      paragraphs: [
        'To the extent permitted by law, [company name] is not liable for indirect or consequential losses arising from your use of the service. Photos and progress figures are provided for information and do not replace inspections, certificates or contractual documents.',
      ],
    },
    {
      heading: 'Governing law',
      paragraphs: ['These terms are governed by the laws of [jurisdiction], and disputes are subject to the courts of [jurisdiction].'],
    },
    CONTACT_SECTION,
  ],
};

export const PRIVACY: LegalDocument = {
  path: '/privacy-policy',
  navLabel: 'Privacy Policy',
  title: 'Privacy Policy',
  summary:
    'This policy explains what personal information Sitecast collects, how we use it, and the choices you have. [company name] is the controller of your personal information.',
  sections: [
    {
      heading: 'Information we collect',
      paragraphs: ['We collect the information you give us and information generated when you use the service:'],
      list: [
        'Account details: your name, email address, phone number (optional) and role.',
        'Project information: project titles, addresses, status, progress and the photos uploaded to them.',
        'Activity: favourites, downloads, sign-in times and technical logs needed to run the service.',
        'Messages you send us through the contact form.',
      ],
    },
    {
      heading: 'How we use your information',
      paragraphs: ['We use your information to:'],
      list: [
        'provide the service and show each person only the projects they have access to;',
        'send you emails you need, such as new-photo notifications, invitations and password resets;',
        'answer your questions and support requests;',
        'keep the service secure and improve how it works.',
      ],
    },
    {
      heading: 'Who we share it with',
      paragraphs: [
        'Project photos and details are visible to the homeowner of the project, the builder assigned to it and administrators. We do not sell your personal information. We share it with service providers who host our systems and deliver email, under contracts that protect it.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'We keep account and project information for as long as your account is active and for [retention period] afterwards, unless the law requires us to keep it longer.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'Depending on where you live, you may have the right to access, correct, export or delete your personal information, and to object to some uses of it. To make a request, contact us at [contact email]. We will respond within [response period].',
      ],
    },
    {
      heading: 'Security',
      paragraphs: [
        'We protect your information with access controls and hashed passwords, and limit who can reach it. No system is perfectly secure, so please keep your password private.',
      ],
    },
    {
      heading: 'Changes to this policy',
      paragraphs: ['We will post any changes on this page and update the date at the top. Material changes will be notified by email.'],
    },
    CONTACT_SECTION,
  ],
};

export const COOKIES: LegalDocument = {
  path: '/cookie-policy',
  navLabel: 'Cookie Policy',
  title: 'Cookie Policy',
  summary:
    'This policy explains how Sitecast uses cookies and similar technologies, and how you can control them.',
  sections: [
    {
      heading: 'What cookies are',
      paragraphs: [
        'Cookies are small text files stored by your browser. They let a website remember information between pages and visits. Similar technologies, such as local storage, work in much the same way.',
      ],
    },
    {
      heading: 'Cookies we use',
      paragraphs: ['Sitecast uses only what it needs to work:'],
      list: [
        'Session cookie — keeps you signed in securely while you use the app. It is strictly necessary.',
        'Theme preference — remembers whether you chose the light, dark or system theme, stored in your browser’s local storage.',
      ],
    },
    {
      heading: 'Third-party cookies',
      paragraphs: [
        'We do not use advertising cookies. If we add analytics or other third-party services in the future, we will list them here and ask for your consent where the law requires it, from [date].',
      ],
    },
    {
      heading: 'Managing cookies',
      paragraphs: [
        'You can block or delete cookies in your browser settings. If you block the session cookie, you will not be able to sign in to Sitecast.',
      ],
    },
    CONTACT_SECTION,
  ],
};

export const LEGAL_DOCUMENTS = [TERMS, PRIVACY, COOKIES] as const;
