// Builders of wire objects for unit tests: a valid default, overridden per test.
import type { Profile } from '../protocol/types';

export const profile = (over: Partial<Profile>): Profile => ({
  id: 'u',
  email: 'u@example.com',
  role: 'homeowner',
  name: null,
  firstName: null,
  lastName: null,
  phone: null,
  builderId: null,
  emailConfirmedAt: null,
  lastSignInAt: null,
  createdAt: 0,
  version: 1,
  ...over,
});
