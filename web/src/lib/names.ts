// Naming rules from SPEC.md §2 (Header, Dashboard) and §3 (Profile display name).

export interface NamedPerson {
  email?: string | null;
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

function clean(value: string | null | undefined): string {
  return (value ?? '').trim();
}

function words(value: string | null | undefined): string[] {
  return clean(value).split(/\s+/).filter(Boolean);
}

/** Capitalises the first letter of every word, leaving the rest as written. */
export function capitalise(value: string): string {
  return value
    .split(/(\s+)/)
    .map((part) => (part.trim() ? part.charAt(0).toUpperCase() + part.slice(1) : part))
    .join('');
}

export function emailLocalPart(email: string | null | undefined): string {
  const value = clean(email);
  const at = value.indexOf('@');
  return at === -1 ? value : value.slice(0, at);
}

/**
 * The capitalised first and last name; otherwise the first name; otherwise the name as
 * typed (a builder's company: "ACC builders" stays "ACC builders"); otherwise the
 * capitalised local part of the email (SPEC §2 Header, §3 Profile).
 */
export function displayName(person: NamedPerson | null | undefined): string {
  if (!person) return '';
  const first = clean(person.firstName);
  const last = clean(person.lastName);
  if (first && last) return capitalise(`${first} ${last}`);
  if (first) return capitalise(first);
  const name = clean(person.name);
  if (name) return name;
  return capitalise(emailLocalPart(person.email));
}

/**
 * First and last name to edit for someone named by first and last name (homeowners,
 * admins): their own, or their one-piece name split at the first space, as invites
 * split it (SPEC §5).
 */
export function nameParts(person: NamedPerson): { firstName: string; lastName: string } {
  const first = clean(person.firstName);
  const last = clean(person.lastName);
  if (first || last) return { firstName: first, lastName: last };
  const name = clean(person.name);
  const space = name.indexOf(' ');
  return space === -1 ? { firstName: name, lastName: '' } : { firstName: name.slice(0, space), lastName: name.slice(space + 1).trim() };
}

/** Admin heading: "Welcome back, {first name, else first word of name, else Admin}". */
export function adminWelcomeName(person: NamedPerson | null | undefined): string {
  return clean(person?.firstName) || words(person?.name)[0] || 'Admin';
}

/**
 * Homeowner heading: "Welcome, {first name, else first word of name, else email local
 * part, else User}!".
 */
export function homeownerWelcomeName(person: NamedPerson | null | undefined): string {
  return (
    clean(person?.firstName) || words(person?.name)[0] || emailLocalPart(person?.email) || 'User'
  );
}

/** Builder dashboard title: the builder's name or "Builder". */
export function builderTitle(person: NamedPerson | null | undefined): string {
  return clean(person?.name) || 'Builder';
}

export function welcomeHeading(role: string, person: NamedPerson | null | undefined): string {
  switch (role) {
    case 'admin':
      return `Welcome back, ${adminWelcomeName(person)}`;
    case 'builder':
      return builderTitle(person);
    default:
      return `Welcome, ${homeownerWelcomeName(person)}!`;
  }
}

/**
 * A person with their company, as shown beside what they did: "Dana Ortiz ·
 * Summit Homes"; the name alone when there is no company or it has the same name (a
 * one-person builder, as every builder was before companies).
 */
export function byline(name: string, company: string | null | undefined): string {
  const firm = clean(company);
  return firm && firm !== name.trim() ? `${name} · ${firm}` : name;
}
